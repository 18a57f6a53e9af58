/**
 * What /admin/access shows: the APIs with their permissions and token settings, the roles with what
 * they grant and to whom, and the groups with their members' count (lib/authorization). Read-only:
 * changes go through the CLI (`gatehouse api|group|role`) or the admin API, both audited.
 */
import 'server-only';
import { serverContext } from '../../context.ts';
import { listApis, listGroups, listRoles, type ApiRecord, type RoleDetail } from '../../authorization/repository.ts';

export interface AccessView {
  apis: ApiRecord[];
  roles: RoleDetail[];
  groups: { name: string; description: string; members: number; roles: string[] }[];
}

export async function accessView(): Promise<AccessView> {
  const { db } = serverContext();
  const [apis, roles, groups] = await Promise.all([listApis(db), listRoles(db), listGroups(db)]);
  return { apis, roles, groups };
}
