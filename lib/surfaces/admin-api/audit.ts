/**
 * The audit log over the admin API: the audit page's query (auditLogPage in
 * lib/audit/log.ts), with filters checked strictly and a page size of the
 * caller's choosing.
 */
import 'server-only';
import { auditLogPage } from '../../audit/log.ts';
import { auditEventDto } from './dto/audit.ts';
import { operations } from './operations.ts';
import { endpoint } from './route.ts';

export const listAuditEvents = endpoint(operations.listAuditEvents, async ({ db, query }) => {
  const { page, per_page, ...filters } = query;
  const { events, total } = await auditLogPage(db, { ...filters, page }, per_page);
  return { data: events.map(auditEventDto), page, per_page, total };
});
