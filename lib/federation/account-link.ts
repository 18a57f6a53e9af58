/**
 * Linking another identity from /account: the signed-in person chooses a connection, goes to the upstream and
 * comes back with the identity linked to them. Never by the email: the identity is linked to whoever is signed
 * in here, and only after a recent sign-in (the Gatehouse session's own, at most RECENT_SIGN_IN_SECONDS old;
 * older, /account asks them to sign in again first), so a browser left signed in cannot have someone else's
 * upstream account linked to it. The round trip is the sign-in's (state, nonce, PKCE, the binding cookie,
 * lib/federation/round-trip.ts), marked `link`, and ends on /account/security instead of an interaction.
 * An identity linked to someone else stays theirs.
 */
import 'server-only';
import { randomPKCECodeVerifier } from 'openid-client';
import { recordAudit, type RequestContext } from '../audit/log.ts';
import type { AppContext } from '../context.ts';
import { findArtifactByUid } from '../db/artifacts.ts';
import { findAccount } from '../users/repository.ts';
import { FederationFailure, type FederationFailureReason } from './errors.ts';
import { addIdentity } from './linking.ts';
import { findConnection, findConnectionBySlug, findIdentity, listConnections, touchIdentity } from './repository.ts';
import { CALLBACK_PATH, randomValue, ROUND_TRIP_TTL_MS, saveState, type StoredState } from './round-trip.ts';
import { authorizationUrl, exchangeCode } from './upstream.ts';

/** How recent the Gatehouse sign-in behind /account must be to link another identity. */
export const RECENT_SIGN_IN_SECONDS = 10 * 60;

/** What /account/security says afterwards (`?identity=`). */
export type LinkOutcome = 'linked' | 'link_taken' | 'link_failed' | 'link_unavailable';

/** Whether the Gatehouse session `sessionUid` of `userId` signed in within RECENT_SIGN_IN_SECONDS. */
export async function recentlySignedIn(ctx: Pick<AppContext, 'db' | 'now'>, userId: string, sessionUid: string | undefined): Promise<boolean> {
  if (!sessionUid) return false;
  const session = await findArtifactByUid(ctx.db.sql, 'Session', sessionUid, ctx.now());
  if (!session || session.accountId !== userId || typeof session.loginTs !== 'number') return false;
  return ctx.now() / 1000 - session.loginTs <= RECENT_SIGN_IN_SECONDS;
}

/** The connections a person may link: those on, less the ones already linked to them. */
export async function linkableConnections(
  ctx: Pick<AppContext, 'db'>,
  linkedSlugs: string[],
): Promise<{ slug: string; displayName: string; icon: string | null }[]> {
  return (await listConnections(ctx.db))
    .filter((c) => c.enabled && !linkedSlugs.includes(c.slug))
    .map(({ slug, displayName, icon }) => ({ slug, displayName, icon }));
}

export type LinkStart = { redirect: string; binding: string } | { error: 'reauthenticate' | LinkOutcome };

/** The /account button: on to the upstream (the binding cookie's value to set), or why not. */
export async function startAccountLink(
  ctx: AppContext,
  person: { id: string; sessionUid?: string },
  slug: string,
  context: RequestContext,
): Promise<LinkStart> {
  if (!(await recentlySignedIn(ctx, person.id, person.sessionUid)) || !person.sessionUid) return { error: 'reauthenticate' };
  const connection = await findConnectionBySlug(ctx.db, slug.slice(0, 64));
  if (!connection?.enabled) return { error: 'link_unavailable' };
  const trip = { state: randomValue(), nonce: randomValue(), codeVerifier: randomPKCECodeVerifier() };
  let redirect: string;
  try {
    redirect = await authorizationUrl(ctx.db, connection, new URL(CALLBACK_PATH, ctx.config.ISSUER).toString(), trip, {}, ctx.now());
  } catch (error) {
    await recordLinkFailure(ctx, error instanceof FederationFailure ? error.reason : 'unreachable', connection.slug, context);
    return { error: 'link_failed' };
  }
  const binding = randomValue();
  const link = { userId: person.id, sessionUid: person.sessionUid };
  const stored = { uid: `account:${person.id}`, connectionId: connection.id, nonce: trip.nonce, codeVerifier: trip.codeVerifier, link };
  await saveState(ctx.db, trip.state, stored, binding, ctx.now() + ROUND_TRIP_TTL_MS);
  return { redirect, binding };
}

async function recordLinkFailure(ctx: AppContext, reason: FederationFailureReason, connection: string, context: RequestContext) {
  await recordAudit(ctx.db, { action: 'federation.failed', actor: null, context, details: { connection: connection.slice(0, 200), reason } });
}

/**
 * The callback of a link round trip (lib/federation/sign-in.ts federationCallback hands it over): the code
 * exchanged and checked like a sign-in's, the identity linked to the person who started it, whose Gatehouse
 * session must still be the one that started it. Returns where the browser goes: /account/security.
 */
export async function finishAccountLink(
  ctx: AppContext,
  trip: StoredState & { link: { userId: string; sessionUid: string } },
  response: URL,
  state: string,
  context: RequestContext,
): Promise<string> {
  const done = (outcome: LinkOutcome) => new URL(`/account/security?identity=${outcome}`, ctx.config.ISSUER).toString();
  const connection = await findConnection(ctx.db, trip.connectionId);
  const fail = async (reason: FederationFailureReason, outcome: LinkOutcome = 'link_failed') => {
    await recordLinkFailure(ctx, reason, connection?.slug ?? '-', context);
    return done(outcome);
  };
  if (!connection?.enabled) return fail('connection_unavailable', 'link_unavailable');
  const session = await findArtifactByUid(ctx.db.sql, 'Session', trip.link.sessionUid, ctx.now());
  const account = await findAccount(ctx.db, trip.link.userId);
  if (!session || session.accountId !== trip.link.userId || !account || account.disabled) return fail('expired');
  const upstreamError = response.searchParams.get('error');
  if (upstreamError) return fail(upstreamError === 'access_denied' ? 'access_denied' : 'upstream_error');
  let profile: Awaited<ReturnType<typeof exchangeCode>>;
  try {
    profile = await exchangeCode(ctx.db, connection, response, { ...trip, state }, ctx.now());
  } catch (error) {
    if (!(error instanceof FederationFailure)) throw error;
    ctx.log.warn({ connection: connection.slug, reason: error.reason, err: error.cause }, 'linking an upstream identity refused');
    return fail(error.reason);
  }
  const at = new Date(ctx.now());
  const existing = await findIdentity(ctx.db, profile.issuer, profile.subject);
  if (existing && existing.userId !== account.id) return fail('identity_taken', 'link_taken');
  if (existing) {
    await touchIdentity(ctx.db, existing.id, at, profile.email, connection.keepTokens ? profile.tokens : undefined);
    return done('linked');
  }
  const person = { id: account.id, username: account.username };
  if (!(await addIdentity(ctx.db, person, connection, profile, at, 'account', context))) return fail('identity_taken', 'link_taken'); // linked meanwhile, elsewhere
  return done('linked');
}
