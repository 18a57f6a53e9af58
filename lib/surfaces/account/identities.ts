/** /account/security's list of the person's identities at other providers, and unlinking one (lib/federation/manage.ts). */
import 'server-only';
import { serverContext } from '../../context.ts';
import { listIdentitiesOf, unlinkIdentity } from '../../federation/manage.ts';
import { Forbidden, NotFound } from '../../platform/errors.ts';
import { byAdmin } from '../portal/audit-context.ts';
import type { SignedInUser } from '../portal/session.ts';

export interface LinkedIdentity {
  id: string;
  connectionName: string;
  email: string | null;
  lastUsedAt: Date | null;
}

export async function identitiesOfUser(user: SignedInUser): Promise<LinkedIdentity[]> {
  const identities = await listIdentitiesOf(serverContext().db, user.id);
  return identities.map(({ id, connectionName, email, lastUsedAt }) => ({ id, connectionName, email, lastUsedAt }));
}

/** `last`: it is the last way into the account, and stays. */
export async function unlinkOwnIdentity(user: SignedInUser, id: string): Promise<'unlinked' | 'last' | 'not_found'> {
  try {
    await unlinkIdentity(serverContext().db, user.id, id.slice(0, 100), 'self', await byAdmin({ id: user.id, username: user.username }));
    return 'unlinked';
  } catch (error) {
    if (error instanceof Forbidden) return 'last';
    if (error instanceof NotFound) return 'not_found';
    throw error;
  }
}
