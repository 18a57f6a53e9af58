/** Buttons and links of the one UI kit: UI only, no data access, usable from server and client components. */
import Link from 'next/link';
import type { AnchorHTMLAttributes, ButtonHTMLAttributes, ReactNode } from 'react';

export const focusRing = 'focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-indigo-300';

const variants = {
  primary: 'border-indigo-600 bg-indigo-600 text-white hover:bg-indigo-500 disabled:bg-indigo-400',
  secondary: 'border-slate-300 bg-white text-slate-700 hover:bg-slate-50 disabled:text-slate-400',
  danger: 'border-red-600 bg-red-600 text-white hover:bg-red-500 disabled:bg-red-400',
} as const;

export type ButtonVariant = keyof typeof variants;

/** `block`: the full width of its container, as on the sign-in cards; otherwise as wide as its label. */
function buttonLook(variant: ButtonVariant, block: boolean): string {
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
    <Link href={href} className={`rounded-sm font-medium text-indigo-700 underline-offset-2 hover:underline ${focusRing}`}>
      {children}
    </Link>
  );
}

/** A form's submit button and its Cancel link, under a rule. */
export function FormActions({ submit, pending, pendingLabel, cancelHref }: { submit: string; pending: boolean; pendingLabel: string; cancelHref: string }) {
  return (
    <div className="flex flex-wrap items-center gap-3 border-t border-slate-200 pt-6">
      <Button type="submit" disabled={pending}>
        {pending ? pendingLabel : submit}
      </Button>
      <Link href={cancelHref} className={`rounded-sm px-2 text-sm font-medium text-slate-600 hover:text-slate-900 ${focusRing}`}>
        Cancel
      </Link>
    </div>
  );
}
