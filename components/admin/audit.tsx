/**
 * How audit log entries read in the portal: the action, who, on whom, the details, in the page's words (the catalogs'
 * auditActions and admin.audit). Identifiers stay as recorded: the action's code, detail names, usernames, ids. UI only.
 */
import { Link } from '../ui/link';
import { useTranslations } from 'next-intl';
import type { AuditEventRecord } from '@/lib/audit/log';
import { CLIENT_ACTOR_PREFIX, isAuditAction } from '@/lib/audit/events';
import { focusRing } from '../ui/button';
import { Badge, type BadgeVariant } from '../ui/notice';

function variantOf(action: string): BadgeVariant {
  if (/failed|denied/.test(action)) return 'red';
  if (/disabled|deleted|revoked|ended|secret_rotated|password_changed|role_changed/.test(action)) return 'amber';
  if (/succeeded|granted|created|enabled/.test(action)) return 'green';
  return 'slate';
}

export function ActionBadge({ action }: { action: string }) {
  const t = useTranslations('auditActions');
  return (
    <span className="inline-flex flex-col items-start gap-0.5">
      <Badge variant={variantOf(action)}>{isAuditAction(action) ? t(action) : action}</Badge>
      <code className="font-mono text-[11px] text-slate-500">{action}</code>
    </span>
  );
}

/** No actor: Gatehouse itself (the CLI, the first start), or, for a request from somewhere, someone not signed in. */
export function Actor({ actor, ip }: { actor: AuditEventRecord['actor']; ip?: string | null }) {
  const t = useTranslations('admin.audit');
  // Never broken inside a word, however narrow the column gets (it wrapped "Sys-tem" at 1280 px).
  if (!actor) return <span className="whitespace-nowrap text-slate-500 italic">{ip ? t('notSignedIn') : t('system')}</span>;
  const name = actor.username ?? actor.id ?? t('unknownActor');
  // A client that called the admin API as itself.
  if (!actor.id && name.startsWith(CLIENT_ACTOR_PREFIX)) {
    return (
      <Link
        href={`/admin/clients/${encodeURIComponent(name.slice(CLIENT_ACTOR_PREFIX.length))}`}
        className={`rounded-sm font-medium text-indigo-700 hover:underline ${focusRing}`}
      >
        {name}
      </Link>
    );
  }
  return actor.id ? (
    <Link href={`/admin/users/${encodeURIComponent(actor.id)}`} className={`rounded-sm font-medium text-indigo-700 hover:underline ${focusRing}`}>
      {name}
    </Link>
  ) : (
    <span>{name}</span>
  );
}

const targetPaths: Record<string, string> = { user: '/admin/users/', client: '/admin/clients/' };

/** The kinds of target the catalogs word; any other is shown as recorded. */
const targetTypes = new Set(['user', 'client']);

export function Target({ target }: { target: AuditEventRecord['target'] }) {
  const t = useTranslations('admin.audit');
  if (!target) return <span className="text-slate-500">—</span>;
  const label = target.label ?? target.id ?? '—';
  const base = targetPaths[target.type];
  return (
    <span>
      <span className="block text-xs text-slate-500">{targetTypes.has(target.type) ? t(`targetTypes.${target.type as 'user' | 'client'}`) : target.type}</span>
      {base && target.id ? (
        <Link href={`${base}${encodeURIComponent(target.id)}`} className={`rounded-sm font-medium wrap-anywhere text-indigo-700 hover:underline ${focusRing}`}>
          {label}
        </Link>
      ) : (
        <span className="wrap-anywhere">{label}</span>
      )}
    </span>
  );
}

/** Why something failed, in words, under its action; nothing for an entry without a reason. */
export function FailureReason({ details }: { details: Record<string, unknown> }) {
  const t = useTranslations('admin.auditReasons');
  const reason = details.reason;
  if (typeof reason !== 'string') return null;
  return (
    <span className="mt-1 block text-xs text-slate-700">
      {t('label')}{' '}
      <strong className="font-semibold">{t.has(`reasons.${reason as 'wrong_password'}`) ? t(`reasons.${reason as 'wrong_password'}`) : reason}</strong>
    </span>
  );
}

/** A detail's value as read: lists joined, flags and emptiness in the page's words (`words`: admin.audit.values), the rest as recorded. */
function show(value: unknown, words: Record<'none' | 'yes' | 'no', string>): string {
  if (Array.isArray(value)) return value.length ? value.map((item) => show(item, words)).join(', ') : words.none;
  if (typeof value === 'boolean') return value ? words.yes : words.no;
  if (value === null || value === undefined) return '—';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

export function Details({ details }: { details: Record<string, unknown> }) {
  const t = useTranslations('admin.audit.values');
  const words = { none: t('none'), yes: t('yes'), no: t('no') };
  const entries = Object.entries(details);
  if (!entries.length) return <span className="text-slate-500">—</span>;
  return (
    <dl className="space-y-0.5 text-xs">
      {entries.map(([key, value]) => (
        <div key={key} className="flex gap-1">
          <dt className="shrink-0 text-slate-500">{key}:</dt>
          <dd className="min-w-0 wrap-anywhere text-slate-800">{show(value, words)}</dd>
        </div>
      ))}
    </dl>
  );
}
