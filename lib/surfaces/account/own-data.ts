/** /account/data: the person's own data to download, and deleting their own account (lib/users/own-account.ts). */
import 'server-only';
import { serverContext } from '../../context.ts';
import { deleteOwnAccount, type DeleteOwnState, type OwnData, ownData, recordOwnDataExported } from '../../users/own-account.ts';
import { byAdmin } from '../portal/audit-context.ts';
import type { SignedInUser } from '../portal/session.ts';

export type { DeleteOwnState };

const bySelf = (user: SignedInUser) => byAdmin({ id: user.id, username: user.username });

/** What the download holds; recorded in the audit log as the person's own action. */
export async function ownDataOf(user: SignedInUser): Promise<OwnData | undefined> {
  const { db, config, now } = serverContext();
  const data = await ownData(db, user, config.SESSION_TTL, now());
  if (data) await recordOwnDataExported(db, user, await bySelf(user));
  return data;
}

export async function deleteOwn(user: SignedInUser, form: FormData): Promise<DeleteOwnState> {
  const ctx = serverContext();
  return deleteOwnAccount({ db: ctx.db, throttle: ctx.throttle, now: ctx.now, selfDelete: selfDeleteAllowed() }, user, form, await bySelf(user));
}

/** ACCOUNT_SELF_DELETE: whether /account/data offers deleting one's own account. */
export function selfDeleteAllowed(): boolean {
  return serverContext().config.ACCOUNT_SELF_DELETE === 'on';
}
