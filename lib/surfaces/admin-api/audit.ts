/**
 * The audit log over the admin API: the audit page's query (auditLogPage in
 * lib/audit/log.ts), with filters checked strictly and a page size of the
 * caller's choosing; the hash chain's verification and the log's export as
 * JSON lines (lib/audit/verify.ts, lib/audit/export.ts).
 */
import 'server-only';
import { auditExportLines } from '../../audit/export.ts';
import { auditLogPage } from '../../audit/log.ts';
import { chainReportToWire, verifyAuditChain as verifyChain } from '../../audit/verify.ts';
import { downloadOfLines } from './download.ts';
import { auditEventDto } from './dto/audit.ts';
import { operations } from './operations.ts';
import { endpoint } from './route.ts';

export const listAuditEvents = endpoint(operations.listAuditEvents, async ({ db, query }) => {
  const { page, per_page, ...filters } = query;
  const { events, total } = await auditLogPage(db, { ...filters, page }, per_page);
  return { data: events.map(auditEventDto), page, per_page, total };
});

export const verifyAuditChain = endpoint(operations.verifyAuditChain, async ({ db }) => chainReportToWire(await verifyChain(db)));

/** A UTC day (the whole of it for `to`) or an instant, as the list reads them. */
const bound = (value: string | undefined, end: boolean) =>
  value === undefined ? undefined : new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T${end ? '23:59:59.999' : '00:00:00.000'}Z` : value);

export const exportAuditEvents = endpoint(operations.exportAuditEvents, async ({ db, query }) => {
  const lines = auditExportLines(db, { since: bound(query.from, false), until: bound(query.to, true) });
  return downloadOfLines(lines, { contentType: 'application/x-ndjson', filename: 'audit.jsonl' });
});
