/**
 * Bulk actions on the users and clients lists: disable, enable or delete several at once. The list's checkboxes
 * lead to one confirmation page that says, item by item, what will change (`planBulk`); its form, a server
 * action, applies the change (`applyBulk`) through the same use cases the single pages call, so each item is
 * checked and audited on its own, as done by this admin. The admin is checked by the caller (requireAdmin) in
 * the action itself; the plan is computed again there, never trusted from the page.
 */
import 'server-only';
import { z } from 'zod';
import { disableClient, enableClient, findClient, deleteClient } from '../../clients/manage.ts';
import type { AuditBy } from '../../audit/log.ts';
import { serverContext } from '../../context.ts';
import { Forbidden, NotFound } from '../../platform/errors.ts';
import { disableUser, enableUser, findUserById, deleteUser } from '../../users/manage.ts';
import type { AdminUser } from './access.ts';
import { byAdmin } from './audit-context.ts';
import { isManagedClient } from './clients.ts';
import { mayActOn, mayActOnClient } from '../../admin-roles/roles.ts';

export const BULK_ACTIONS = ['disable', 'enable', 'delete'] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];
export type BulkArea = 'users' | 'clients';

/** At most a list page's worth and a little more: a request naming more is cut, not refused. */
export const MAX_BULK_ITEMS = 100;

/**
 * What happens to one item: `change`, it will be (was) changed; `unchanged`, it already is as asked;
 * `self`, the admin's own account (not disabled or deleted by oneself); `managed`, the portal's own client;
 * `missing`, no such item (deleted meanwhile, or a made-up id); `role`, one the admin's role may not change
 * (an owner's account, another admin's for a user manager, a client acting as owner: lib/admin-roles/roles.ts).
 */
export type BulkOutcome = 'change' | 'unchanged' | 'self' | 'managed' | 'missing' | 'role';

export interface BulkItem {
  id: string;
  /** The username or the client's name; the id when it is missing. */
  label: string;
  outcome: BulkOutcome;
}

export interface BulkPlan {
  area: BulkArea;
  action: BulkAction;
  items: BulkItem[];
}

const ids = z.array(z.string().min(1).max(128)).transform((list) => [...new Set(list)].slice(0, MAX_BULK_ITEMS));
const action = z.enum(BULK_ACTIONS);

/** The action and ids a list's form or the confirmation's form sent; undefined when the action is unknown or nothing was chosen. */
export function readBulkRequest(input: { action: unknown; ids: unknown[] }): { action: BulkAction; ids: string[] } | undefined {
  const a = action.safeParse(input.action);
  const list = ids.safeParse(input.ids.filter((id) => typeof id === 'string'));
  if (!a.success || !list.success || list.data.length === 0) return undefined;
  return { action: a.data, ids: list.data };
}

/** What an action does to an item in a given state: disabling a disabled one changes nothing. */
function outcomeFor(bulk: BulkAction, enabled: boolean): BulkOutcome {
  if (bulk === 'delete') return 'change';
  return (bulk === 'disable') === enabled ? 'change' : 'unchanged';
}

async function userItem(admin: AdminUser, bulk: BulkAction, id: string): Promise<BulkItem> {
  const user = await findUserById(serverContext().db, id);
  if (!user) return { id, label: id, outcome: 'missing' };
  // Enabling oneself is harmless (an admin who can act is enabled); disabling or deleting oneself is refused.
  if (user.id === admin.id && bulk !== 'enable') return { id, label: user.username, outcome: 'self' };
  if (!mayActOn(admin.role, user.role)) return { id, label: user.username, outcome: 'role' };
  return { id, label: user.username, outcome: outcomeFor(bulk, !user.disabled) };
}

async function clientItem(admin: AdminUser, bulk: BulkAction, id: string): Promise<BulkItem> {
  const client = await findClient(serverContext().db, id);
  if (!client) return { id, label: id, outcome: 'missing' };
  if (isManagedClient(client.id)) return { id, label: client.name, outcome: 'managed' };
  if (!mayActOnClient(admin.role, client)) return { id, label: client.name, outcome: 'role' };
  return { id, label: client.name, outcome: outcomeFor(bulk, client.enabled) };
}

/** The confirmation page's list: each chosen item with what the action will do to it. Changes nothing. */
export async function planBulk(admin: AdminUser, area: BulkArea, request: { action: BulkAction; ids: string[] }): Promise<BulkPlan> {
  const items = await Promise.all(request.ids.map((id) => (area === 'users' ? userItem(admin, request.action, id) : clientItem(admin, request.action, id))));
  return { area, action: request.action, items };
}

/** One item changed through its use case, which records it in the audit log; a refusal there (a race) counts as not changed. */
async function applyOne(area: BulkArea, bulk: BulkAction, id: string, by: AuditBy): Promise<boolean> {
  const { db } = serverContext();
  try {
    if (area === 'users') {
      if (bulk === 'delete') return await deleteUser(db, id, by);
      await (bulk === 'disable' ? disableUser(db, id, by) : enableUser(db, id, by));
      return true;
    }
    if (bulk === 'delete') return await deleteClient(db, id, by);
    return bulk === 'disable' ? await disableClient(db, id, by) : await enableClient(db, id, by);
  } catch (error) {
    if (error instanceof Forbidden || error instanceof NotFound) return false;
    throw error;
  }
}

/**
 * Applies the action to every item the plan, computed again now, says will change; the others are left as they
 * are. Returns how many changed. One after the other: each revokes what its item holds, and the log keeps their order.
 */
export async function applyBulk(admin: AdminUser, area: BulkArea, request: { action: BulkAction; ids: string[] }): Promise<{ changed: number }> {
  const plan = await planBulk(admin, area, request);
  const by = await byAdmin(admin);
  let changed = 0;
  for (const item of plan.items) {
    if (item.outcome === 'change' && (await applyOne(area, plan.action, item.id, by))) changed += 1;
  }
  return { changed };
}
