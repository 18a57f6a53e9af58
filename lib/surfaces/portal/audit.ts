/**
 * The admin portal's audit log page as a use case: the filters from the query
 * string (malformed ones are dropped, not refused), one page of entries.
 */
import 'server-only';
import { serverContext } from '../../context.ts';
import { auditActions, auditLogPage, type AuditPage } from '../../audit/log.ts';
import type { AdminUser } from './access.ts';

export type { AuditPage };

/** The actions an admin can filter by (the page words each from the catalogs' auditActions). */
export const auditActionOptions = auditActions;

export async function auditPage(_admin: AdminUser, params: Record<string, string | string[] | undefined>): Promise<AuditPage> {
  const one = (name: string) => (typeof params[name] === 'string' ? (params[name] as string) : undefined);
  return auditLogPage(serverContext().db, {
    action: one('action') || undefined,
    actor: one('actor'),
    target: one('target'),
    from: one('from'),
    to: one('to'),
    page: one('page'),
  });
}
