/** /account/security's list of the person's identities at other providers, and unlinking one (lib/federation/manage.ts). */
import 'server-only';
import { cookies, headers } from 'next/headers';
import { requestContext } from '../../audit/log.ts';
import { serverContext } from '../../context.ts';
import { linkableConnections, recentlySignedIn, startAccountLink } from '../../federation/account-link.ts';
import { BINDING_COOKIE, CALLBACK_PATH, ROUND_TRIP_TTL_MS } from '../../federation/round-trip.ts';
import { listIdentitiesOf, unlinkIdentity } from '../../federation/manage.ts';
import { Forbidden, NotFound } from '../../platform/errors.ts';
import { byAdmin } from '../portal/audit-context.ts';
import type { SignedInUser } from '../portal/session.ts';

export interface LinkedIdentity {
  id: string;
  connectionSlug: string;
  connectionName: string;
  email: string | null;
  lastUsedAt: Date | null;
}

export async function identitiesOfUser(user: SignedInUser): Promise<LinkedIdentity[]> {
  const identities = await listIdentitiesOf(serverContext().db, user.id);
  return identities.map(({ id, connectionSlug, connectionName, email, lastUsedAt }) => ({ id, connectionSlug, connectionName, email, lastUsedAt }));
}

/** The connections the person may link another identity through, and whether their sign-in is recent enough to. */
export async function linkOffer(user: SignedInUser, linked: LinkedIdentity[]) {
  const ctx = serverContext();
  const connections = await linkableConnections(
    ctx,
    linked.map((identity) => identity.connectionSlug),
  );
  return { connections, recent: connections.length ? await recentlySignedIn(ctx, user.id, user.sessionUid) : false };
}

/**
 * "Link": where the browser goes: the upstream (with the round trip's binding cookie set), or back to
 * /account/security with why not; `reauthenticate`: sign in again first (lib/federation/account-link.ts).
 */
export async function startLinkFor(user: SignedInUser, slug: string): Promise<{ redirect: string } | { outcome: string }> {
  const ctx = serverContext();
  const started = await startAccountLink(ctx, user, slug, requestContext(await headers()));
  if ('error' in started) return { outcome: started.error };
  (await cookies()).set(BINDING_COOKIE, started.binding, {
    path: CALLBACK_PATH,
    maxAge: ROUND_TRIP_TTL_MS / 1000,
    httpOnly: true,
    // Lax: the upstream sends the browser back with a top-level GET.
    sameSite: 'lax',
    secure: ctx.config.ISSUER.startsWith('https:'),
  });
  return { redirect: started.redirect };
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
