/** Surfaces of the one UI kit: a page's header, a card, the centred card of the sign-in pages. UI only. */
import { Link } from './link';
import type { ReactNode } from 'react';
import { brand } from '@/lib/config/brand';
import { LanguageSwitcher } from '../interaction/language-switcher';
import { BrandLockup } from './brand';
import { focusRing } from './button';

export function PageHeader({
  title,
  description,
  actions,
  back,
}: {
  title: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  back?: { href: string; label: string };
}) {
  return (
    <header className="mb-6">
      {back ? (
        <p className="mb-2 text-sm">
          <Link href={back.href} className={`text-slate-500 hover:text-slate-800 ${focusRing} rounded-sm`}>
            <span aria-hidden>←</span> {back.label}
          </Link>
        </p>
      ) : null}
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <h1 className="text-2xl font-semibold break-words text-slate-900">{title}</h1>
          {description ? <div className="mt-1 text-sm text-slate-600">{description}</div> : null}
        </div>
        {actions ? <div className="flex flex-wrap items-center gap-2">{actions}</div> : null}
      </div>
    </header>
  );
}

/** A page's form under its list (issue a token, add an endpoint), titled by its heading; `id` is the heading's. */
export function FormPanel({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="mt-8 rounded-xl border border-slate-200 bg-white p-6 shadow-xs">
      <h2 id={id} className="mb-4 text-base font-semibold text-slate-900">
        {title}
      </h2>
      {children}
    </section>
  );
}

export function Card({
  title,
  description,
  children,
  variant = 'default',
}: {
  title?: string;
  description?: ReactNode;
  children: ReactNode;
  variant?: 'default' | 'danger';
}) {
  const id = title ? `card-${title.toLowerCase().replace(/\W+/g, '-')}` : undefined;
  return (
    <section aria-labelledby={id} className={`rounded-xl border bg-white p-5 shadow-xs sm:p-6 ${variant === 'danger' ? 'border-red-200' : 'border-slate-200'}`}>
      {title ? (
        <h2 id={id} className={`text-base font-semibold ${variant === 'danger' ? 'text-red-800' : 'text-slate-900'}`}>
          {title}
        </h2>
      ) : null}
      {description ? <div className="mt-1 text-sm text-slate-600">{description}</div> : null}
      <div className={title || description ? 'mt-4' : ''}>{children}</div>
    </section>
  );
}

/** The centred card every sign-in page is built on, under the operator's logo and name, with the language switcher below. */
export function AuthCard({ title, subtitle, children }: { title: string; subtitle?: ReactNode; children: ReactNode }) {
  return (
    <main className="flex min-h-screen items-center justify-center px-4 py-10">
      <section aria-labelledby="card-title" className="w-full max-w-sm rounded-xl border border-slate-200 bg-white p-8 shadow-sm">
        <p className="mb-6">
          <BrandLockup brand={brand()} />
        </p>
        <h1 id="card-title" className="text-xl font-semibold text-slate-900">
          {title}
        </h1>
        {subtitle ? <div className="mt-2 text-sm text-slate-600">{subtitle}</div> : null}
        <div className="mt-6">{children}</div>
        <LanguageSwitcher />
      </section>
    </main>
  );
}
