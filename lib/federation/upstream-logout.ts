/**
 * Upstream logout: when a person who signed in through a connection with `upstreamLogout` on signs out at
 * Gatehouse (RP-Initiated Logout 1.0 at /oauth/logout), the local session ends as always, and then the
 * browser goes on to the upstream's end_session_endpoint, which ends the person's session there and sends
 * them back to /federation/logged-out, from where they go on to where Gatehouse's logout was going anyway
 * (the client's post_logout_redirect_uri with its state, or the signed-out page).
 *
 * What it keeps, in the provider's artifact table:
 * - `FederatedSession`: which connection a session was signed in through (and the upstream's ID token for
 *   `id_token_hint`, when the connection keeps tokens). Written under the interaction's uid when the
 *   federated sign-in finishes, moved under the session's uid when the provider resumes the authorization
 *   and signs the session in (the session has no uid of its own before), read when that session logs out.
 * - `FederatedLogout`, keyed by the random `state` sent upstream: where to go once the upstream is done.
 *   Taken once, so a replayed or forged return goes nowhere but the signed-out page.
 * The two provider hooks run after the provider's own step, and change nothing when nothing was kept.
 */
import type Provider from 'oidc-provider';
import { z } from 'zod';
import { takeArtifact, upsertArtifact } from '../db/artifacts.ts';
import type { Database } from '../db/database.ts';
import { randomValue } from './round-trip.ts';

const SESSION_MODEL = 'FederatedSession';
const LOGOUT_MODEL = 'FederatedLogout';

/** Where the upstream sends the browser back after its logout: register it upstream as a post-logout redirect URI. */
export const LOGGED_OUT_PATH = '/federation/logged-out';

/** How long the person may take at the upstream's logout page. */
const LOGOUT_TTL_MS = 10 * 60 * 1000;

/** `idToken`: the upstream's ID token, sealed under the keyring (it names the person), for `id_token_hint`. */
const sessionSchema = z.object({ connectionId: z.string(), idToken: z.string().optional() });

/** Associated data of a kept upstream ID token. */
const ID_TOKEN_CONTEXT = 'federated_sessions:id_token';

/** After a federated sign-in in interaction `uid` (lib/federation/sign-in.ts), until the provider signs the session in. */
export async function saveFederatedSession(db: Database, uid: string, session: { connectionId: string; idToken?: string }, expiresAt: number): Promise<void> {
  const idToken = session.idToken ? db.keyring.seal(session.idToken, ID_TOKEN_CONTEXT) : undefined;
  await upsertArtifact(db.sql, SESSION_MODEL, `interaction:${uid}`, { connectionId: session.connectionId, ...(idToken ? { idToken } : {}) }, expiresAt);
}

const returnSchema = z.object({ to: z.string() });

interface HookContext {
  db: Database;
  now: () => number;
  issuer: string;
  routes: { authorization: string; endSession: string };
  /** Failures are logged, never shown: the local logout stands whatever the upstream does. */
  warn: (details: Record<string, unknown>, message: string) => void;
}

interface ProviderSession {
  uid?: string;
  amr?: string[];
  exp?: number;
  destroyed?: boolean;
}

export function useUpstreamLogout(provider: Provider, hook: HookContext): void {
  provider.use(async (ctx, next) => {
    await next();
    const resuming = ctx.method === 'GET' && ctx.path.startsWith(`${hook.routes.authorization}/`);
    const confirming = ctx.method === 'POST' && ctx.path === `${hook.routes.endSession}/confirm`;
    if (!resuming && !confirming) return;
    const session = (ctx as unknown as { oidc?: { session?: ProviderSession } }).oidc?.session;
    if (!session?.uid) return;
    try {
      if (resuming && session.amr?.includes('fed')) await adoptSession(hook, ctx.path.slice(hook.routes.authorization.length + 1), session);
      if (confirming && session.destroyed && ctx.status === 303) {
        const upstream = await upstreamLogoutUrl(hook, session.uid, ctx.response.get('location'));
        if (upstream) ctx.redirect(upstream);
      }
    } catch (error) {
      hook.warn({ err: error }, 'upstream logout step failed');
    }
  });
}

/** The provider resumed interaction `uid` into `session`: what the sign-in kept moves under the session's uid. */
async function adoptSession(hook: HookContext, uid: string, session: ProviderSession): Promise<void> {
  const kept = sessionSchema.safeParse(await takeArtifact(hook.db.sql, SESSION_MODEL, `interaction:${uid}`, hook.now()));
  if (!kept.success || !session.uid) return;
  const expiresAt = session.exp ? session.exp * 1000 : hook.now() + 30 * 24 * 3600 * 1000;
  await upsertArtifact(hook.db.sql, SESSION_MODEL, `session:${session.uid}`, kept.data, expiresAt);
}

/** The ended session's upstream logout, with `returnTo` (where Gatehouse's logout was going) kept for the way back. */
async function upstreamLogoutUrl(hook: HookContext, sessionUid: string, returnTo: string): Promise<string | undefined> {
  const kept = sessionSchema.safeParse(await takeArtifact(hook.db.sql, SESSION_MODEL, `session:${sessionUid}`, hook.now()));
  if (!kept.success || !returnTo) return undefined;
  const [{ findConnection }, { endSessionUrl }] = await Promise.all([import('./repository.ts'), import('./upstream.ts')]);
  const connection = await findConnection(hook.db, kept.data.connectionId);
  if (!connection?.enabled || !connection.upstreamLogout) return undefined;
  const state = randomValue();
  const postLogoutRedirectUri = new URL(LOGGED_OUT_PATH, hook.issuer).toString();
  const idTokenHint = kept.data.idToken ? hook.db.keyring.open(kept.data.idToken, ID_TOKEN_CONTEXT) : undefined;
  const url = await endSessionUrl(hook.db, connection, { postLogoutRedirectUri, state, idTokenHint }, hook.now());
  if (!url) return undefined;
  await upsertArtifact(hook.db.sql, LOGOUT_MODEL, state, { to: new URL(returnTo, hook.issuer).toString() }, hook.now() + LOGOUT_TTL_MS);
  return url;
}

/**
 * GET /federation/logged-out: the upstream is done; on to where Gatehouse's logout was going. An unknown,
 * used or expired state goes to the signed-out page: never to an address the query names.
 */
export async function afterUpstreamLogout(ctx: { db: Database; now: () => number; issuer: string; signedOut: string }, state: string | null): Promise<string> {
  if (!state || state.length > 200) return new URL(ctx.signedOut, ctx.issuer).toString();
  const kept = returnSchema.safeParse(await takeArtifact(ctx.db.sql, LOGOUT_MODEL, state, ctx.now()));
  return kept.success ? kept.data.to : new URL(ctx.signedOut, ctx.issuer).toString();
}
