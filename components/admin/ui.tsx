/** The admin portal's building blocks: UI only, no data access, usable from server and client components. */
import Link from 'next/link';
import type { AnchorHTMLAttributes, ButtonHTMLAttributes, ReactNode } from 'react';

export const focusRing = 'focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-indigo-300';

const buttonLooks = {
  primary: 'border-indigo-600 bg-indigo-600 text-white hover:bg-indigo-500 disabled:bg-indigo-400',
  secondary: 'border-slate-300 bg-white text-slate-700 hover:bg-slate-50 disabled:text-slate-400',
  danger: 'border-red-600 bg-red-600 text-white hover:bg-red-500 disabled:bg-red-400',
} as const;

type Look = keyof typeof buttonLooks;
const buttonBase = `inline-flex items-center justify-center gap-2 rounded-lg border px-3.5 py-2 text-sm font-semibold whitespace-nowrap ${focusRing}`;

export function Button({ look = 'primary', className = '', ...props }: { look?: Look } & ButtonHTMLAttributes<HTMLButtonElement>) {
  return <button className={`${buttonBase} ${buttonLooks[look]} ${className}`} {...props} />;
}

export function ButtonLink({ look = 'primary', href, children, ...props }: { look?: Look; href: string } & AnchorHTMLAttributes<HTMLAnchorElement>) {
  return (
    <Link href={href} className={`${buttonBase} ${buttonLooks[look]}`} {...props}>
      {children}
    </Link>
  );
}

export function TextLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Link href={href} className={`font-medium text-indigo-700 underline-offset-2 hover:underline ${focusRing} rounded-sm`}>
      {children}
    </Link>
  );
}

export function PageHeader({ title, description, actions, back }: { title: ReactNode; description?: ReactNode; actions?: ReactNode; back?: { href: string; label: string } }) {
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

const badgeTones = {
  green: 'bg-emerald-50 text-emerald-800 ring-emerald-600/20',
  slate: 'bg-slate-100 text-slate-700 ring-slate-500/20',
  amber: 'bg-amber-50 text-amber-800 ring-amber-600/20',
  indigo: 'bg-indigo-50 text-indigo-800 ring-indigo-600/20',
  red: 'bg-red-50 text-red-800 ring-red-600/20',
} as const;

export function Badge({ tone = 'slate', children }: { tone?: keyof typeof badgeTones; children: ReactNode }) {
  return <span className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${badgeTones[tone]}`}>{children}</span>;
}

/** A success notice is a status (announced politely); a failure is an alert. */
export function Notice({ tone = 'success', children }: { tone?: 'success' | 'error' | 'warning'; children: ReactNode }) {
  const look =
    tone === 'success'
      ? 'border-emerald-200 bg-emerald-50 text-emerald-900'
      : tone === 'warning'
        ? 'border-amber-200 bg-amber-50 text-amber-900'
        : 'border-red-200 bg-red-50 text-red-800';
  return (
    <div role={tone === 'error' ? 'alert' : 'status'} className={`mb-6 rounded-lg border px-4 py-3 text-sm ${look}`}>
      {children}
    </div>
  );
}

export function Card({ title, description, children, tone = 'default' }: { title?: string; description?: ReactNode; children: ReactNode; tone?: 'default' | 'danger' }) {
  const id = title ? `card-${title.toLowerCase().replace(/\W+/g, '-')}` : undefined;
  return (
    <section aria-labelledby={id} className={`rounded-xl border bg-white p-5 shadow-xs sm:p-6 ${tone === 'danger' ? 'border-red-200' : 'border-slate-200'}`}>
      {title ? (
        <h2 id={id} className={`text-base font-semibold ${tone === 'danger' ? 'text-red-800' : 'text-slate-900'}`}>
          {title}
        </h2>
      ) : null}
      {description ? <div className="mt-1 text-sm text-slate-600">{description}</div> : null}
      <div className={title || description ? 'mt-4' : ''}>{children}</div>
    </section>
  );
}

export function formatDate(date: Date): string {
  return `${new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(date)} UTC`;
}
