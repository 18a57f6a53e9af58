/** Notices and badges of the one UI kit. UI only. */
import type { ReactNode } from 'react';

/** A success or warning notice is a status (announced politely); an error is an alert. */
const noticeVariants = {
  success: { role: 'status', look: 'border-emerald-200 bg-emerald-50 text-emerald-900' },
  warning: { role: 'status', look: 'border-amber-200 bg-amber-50 text-amber-900' },
  error: { role: 'alert', look: 'border-red-200 bg-red-50 text-red-800' },
} as const;

export type NoticeVariant = keyof typeof noticeVariants;

/** `compact`: inside a sign-in card. */
export function Notice({ variant = 'success', compact = false, children }: { variant?: NoticeVariant; compact?: boolean; children: ReactNode }) {
  const { role, look } = noticeVariants[variant];
  return (
    <div role={role} className={`${compact ? 'mb-4 px-3 py-2' : 'mb-6 px-4 py-3'} rounded-lg border text-sm ${look}`}>
      {children}
    </div>
  );
}

/** A notice chosen by a `?notice=` key from a page's own list (what an action redirected back with). */
export function NoticeFor({ notices, notice }: { notices: Record<string, { variant: NoticeVariant; text: ReactNode }>; notice: unknown }) {
  const found = typeof notice === 'string' && Object.hasOwn(notices, notice) ? notices[notice] : undefined;
  return found ? <Notice variant={found.variant}>{found.text}</Notice> : null;
}

/** A form-wide message under the fields (not tied to one of them). */
export function FormError({ messages }: { messages?: string[] }) {
  return messages ? (
    <p role="alert" className="text-sm text-red-700">
      {messages.join(' ')}
    </p>
  ) : null;
}

const badgeVariants = {
  green: 'bg-emerald-50 text-emerald-800 ring-emerald-600/20',
  slate: 'bg-slate-100 text-slate-700 ring-slate-500/20',
  amber: 'bg-amber-50 text-amber-800 ring-amber-600/20',
  indigo: 'bg-accent-soft text-accent-text ring-accent/25',
  red: 'bg-red-50 text-red-800 ring-red-600/20',
} as const;

export type BadgeVariant = keyof typeof badgeVariants;

export function Badge({ variant = 'slate', children }: { variant?: BadgeVariant; children: ReactNode }) {
  return (
    <span className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${badgeVariants[variant]}`}>{children}</span>
  );
}
