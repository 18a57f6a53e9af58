/**
 * Who acts in the admin portal, for the audit log: the admin `requireAdmin()`
 * returned, and where their request came from (lib/platform/request-context.ts).
 */
import 'server-only';
import { headers } from 'next/headers';
import { requestContext, type AuditBy } from '../../audit/log.ts';
import type { AdminUser } from './access.ts';

export async function byAdmin(admin: AdminUser): Promise<AuditBy> {
  return { actor: { id: admin.id, username: admin.username }, context: requestContext(await headers()) };
}
