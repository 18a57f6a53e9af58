/**
 * Who acts in the admin portal, for the audit log: the admin `requireAdmin()`
 * returned with the admin role they act with, and where their request came from (lib/platform/request-context.ts).
 */
import 'server-only';
import { headers } from 'next/headers';
import { requestContext, type AuditBy } from '../../audit/log.ts';
import type { AdminUser } from './access.ts';

export async function byAdmin(admin: Pick<AdminUser, 'id' | 'username'> & { role?: AdminUser['role'] }): Promise<AuditBy> {
  return { actor: { id: admin.id, username: admin.username, ...(admin.role ? { role: admin.role } : {}) }, context: requestContext(await headers()) };
}
