/**
 * What the client and user pages' server actions share. Each runs as the signed-in
 * admin (a server action is a public POST endpoint, whatever page its form is on;
 * Next.js refuses server-action posts whose Origin is not this host), then turns
 * the use case's outcome into the page's next step.
 */
import 'server-only';
import { notFound, redirect } from 'next/navigation';
import type { Permission } from '@/lib/admin-roles/roles';
import { requireAdmin, type ActsOn, type AdminUser } from '@/lib/surfaces/portal/session';

type Area = 'clients' | 'users' | 'connections';
type FormResult<T> = Exclude<T, { status: 'saved' | 'not_found' }>;

/** A client's, user's or connection's page in the portal. */
export const recordPath = (area: Area, id: string) => `/admin/${area}/${encodeURIComponent(id)}`;

/**
 * Runs `act` as the signed-in admin whose role may do `permission` (and, with `actsOn`, act on that
 * person's account); anyone else gets the 403 page; without a portal session, sign-in comes back to `returnTo`.
 */
export async function asAdmin<T>(permission: Permission, returnTo: string, act: (admin: AdminUser) => Promise<T>, actsOn?: ActsOn): Promise<T> {
  return act(await requireAdmin(permission, returnTo, actsOn));
}

const MANAGE: Record<Area, Permission> = { clients: 'clients.manage', users: 'users.manage', connections: 'connections.manage' };

/** The form of /admin/<area>/new: its state after `create`. */
export function createRecord<T>(area: Area, create: (admin: AdminUser) => Promise<T>): Promise<T> {
  return asAdmin(MANAGE[area], `/admin/${area}/new`, create);
}

/** The form of /admin/<area>/<id>/edit: saved goes back to the record's page with the notice "saved". */
export async function editRecord<T extends { status: string; notice?: string }>(
  area: Area,
  id: string,
  save: (admin: AdminUser) => Promise<T>,
): Promise<FormResult<T>> {
  // Whose role the change must respect: a person's, or an admin-API client's; a connection has none.
  const actsOn = area === 'users' ? { userId: id } : area === 'clients' ? { clientId: id } : undefined;
  return afterForm(recordPath(area, id), await asAdmin(MANAGE[area], `${recordPath(area, id)}/edit`, save, actsOn));
}

/** After a form on a record: gone is a 404, saved goes back to its page with the notice "saved" (or the one the result names), anything else is the form's next state. */
export function afterForm<T extends { status: string; notice?: string }>(path: string, result: T): FormResult<T> {
  if (result.status === 'not_found') notFound();
  if (result.status === 'saved') redirect(`${path}?notice=${encodeURIComponent(result.notice ?? 'saved')}`);
  return result as FormResult<T>;
}

/** After a one-click change on a record: gone is a 404, otherwise back to its page with the notice for done or refused. */
export function afterChange(path: string, result: { status: 'done' | 'refused' | 'not_found' }, notices: { done: string; refused: string }): never {
  if (result.status === 'not_found') notFound();
  redirect(`${path}?notice=${result.status === 'done' ? notices.done : notices.refused}`);
}
