/** Buttons and links of the one UI kit: UI only, no data access, usable from server and client components. */
import { Link } from './link';
import { useTranslations } from 'next-intl';
import type { AnchorHTMLAttributes, ButtonHTMLAttributes, ReactNode } from 'react';

/** 3:1 or more against the page and the card in both schemes (lib/config/brand.ts, `ring`); indigo-300 was 2.0:1. */
export const focusRing = 'focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-accent-ring';

const variants = {
  primary:
    'border-accent bg-accent text-on-accent hover:border-accent-hover hover:bg-accent-hover hover:text-on-accent-hover disabled:border-accent-muted disabled:bg-accent-muted disabled:text-on-accent',
  secondary: 'border-slate-300 bg-white text-slate-700 hover:bg-slate-50 disabled:text-slate-400',
  danger: 'border-red-600 bg-red-600 text-on-fill hover:bg-red-500 disabled:bg-red-400',
} as const;

export type ButtonVariant = keyof typeof variants;

/** `block`: the full width of its container, as on the sign-in cards; otherwise as wide as its label. */
export function buttonLook(variant: ButtonVariant, block: boolean): string {
  const shape = block ? 'w-full px-4 text-center' : 'inline-flex items-center justify-center gap-2 px-3.5 whitespace-nowrap';
  return `${shape} rounded-lg border py-2 text-sm font-semibold ${variants[variant]} ${focusRing}`;
}

export function Button({
  variant = 'primary',
  block = false,
  className = '',
  ...props
}: { variant?: ButtonVariant; block?: boolean } & ButtonHTMLAttributes<HTMLButtonElement>) {
  return <button className={`${buttonLook(variant, block)} ${className}`} {...props} />;
}

export function ButtonLink({
  variant = 'primary',
  block = false,
  href,
  children,
  ...props
}: { variant?: ButtonVariant; block?: boolean; href: string } & AnchorHTMLAttributes<HTMLAnchorElement>) {
  return (
    <Link href={href} className={`${block ? 'block ' : ''}${buttonLook(variant, block)}`} {...props}>
      {children}
    </Link>
  );
}

export function TextLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Link href={href} className={`rounded-sm font-medium text-accent-text underline-offset-2 hover:underline ${focusRing}`}>
      {children}
    </Link>
  );
}

/** A form's submit button and its Cancel link (the catalogs' `ui.cancel`), under a rule. */
export function FormActions({ submit, pending, pendingLabel, cancelHref }: { submit: string; pending: boolean; pendingLabel: string; cancelHref: string }) {
  const t = useTranslations('ui');
  return (
    <div className="flex flex-wrap items-center gap-3 border-t border-slate-200 pt-6">
      <Button type="submit" disabled={pending}>
        {pending ? pendingLabel : submit}
      </Button>
      <Link href={cancelHref} className={`rounded-sm px-2 text-sm font-medium text-slate-600 hover:text-slate-900 ${focusRing}`}>
        {t('cancel')}
      </Link>
    </div>
  );
}
