/**
 * Signing in with an upstream identity provider, behind the sign-in page's buttons:
 * 1. `startFederatedSignIn` (POST /interaction/:uid/federation): the connection must be on and offered
 *    to the interaction's client; the round trip is stored (lib/federation/round-trip.ts) and the
 *    browser sent upstream with state, nonce and PKCE, a binding cookie set.
 * 2. `federationCallback` (GET /federation/callback): the state taken once and checked against the
 *    browser's cookie, the code exchanged and the ID token checked (lib/federation/upstream.ts), who
 *    signed in kept for the interaction's own step.
 * 3. `completeFederatedSignIn` (GET /interaction/:uid/federation, with the interaction's cookie): the
 *    identity's account signs in; an unknown identity is created just in time (when the connection
 *    allows it) or waits for the person to prove the account its verified address names
 *    (lib/federation/linking.ts). Never linked by the email alone.
 * Every failure is audited (`federation.failed`, with the connection and the reason) and shown as a
 * page in the person's language (the sign-in page's notice, or /federation/error).
 */
import 'server-only';
import { randomPKCECodeVerifier } from 'openid-client';
import type { AppContext } from '../context.ts';
import { recordAudit, userTarget, type RequestContext } from '../audit/log.ts';
import { ACR } from '../oidc/authentication-context.ts';
import { clientForDisplay, finishInteraction, interactionParams, type Interaction } from '../oidc/interaction.ts';
import { formText } from '../platform/forms.ts';
import { clientOf, completePasswordStep, current, onLoginStep, type InteractionOutcome } from '../sign-in/interactions.ts';
import { findAccount, findUserIdByEmail, insertUser, setUserDisabled, setVerifiedEmail } from '../users/repository.ts';
import { FederationFailure, type FederationFailureReason } from './errors.ts';
import { addIdentity, savePendingLink } from './linking.ts';
import { finishAccountLink } from './account-link.ts';
import { findConnection, findConnectionBySlug, findIdentity, touchIdentity, type ConnectionRecord } from './repository.ts';
import { connectionForAddress, offeredTo } from './offer.ts';
import {
  BINDING_COOKIE,
  CALLBACK_PATH,
  randomValue,
  ROUND_TRIP_TTL_MS,
  saveResult,
  saveState,
  takeResult,
  takeState,
  type StoredProfile,
} from './round-trip.ts';
import { justInTimeUsername } from './usernames.ts';
import { saveFederatedSession } from './upstream-logout.ts';
import { authorizationUrl, exchangeCode } from './upstream.ts';

/** The callback to register upstream: built from the configured issuer, never from a request's headers. */
export const callbackUrl = (issuer: string) => new URL(CALLBACK_PATH, issuer).toString();

export const bindingCookie = (value: string, secure: boolean, maxAgeSeconds = ROUND_TRIP_TTL_MS / 1000) =>
  // Lax: the upstream sends the browser back with a top-level GET, which Lax cookies go with.
  `${BINDING_COOKIE}=${value}; Path=${CALLBACK_PATH}; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;

async function recordFailure(
  ctx: AppContext,
  reason: FederationFailureReason,
  connection: string,
  client: { clientId?: string; clientName?: string },
  context: RequestContext,
): Promise<void> {
  ctx.metrics.signIn('failed');
  const details = { connection: connection.slice(0, 200), reason, ...(client.clientId ? { clientId: client.clientId, clientName: client.clientName } : {}) };
  await recordAudit(ctx.db, { action: 'federation.failed', actor: null, context, details });
}

/** The request's max_age in seconds (the provider validated it as a non-negative integer), or undefined. */
function requestedMaxAge(value: unknown): number | undefined {
  const seconds = typeof value === 'number' ? value : typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : Number.NaN;
  return Number.isSafeInteger(seconds) && seconds >= 0 ? seconds : undefined;
}

/** Step 1: the button's POST. */
export const startFederatedSignIn = onLoginStep(async (ctx, interaction, uid, _cookie, form, context) => {
  const client = await clientOf(ctx, interaction);
  const slug = formText(form, 'connection', 64);
  // Identifier first: no button pressed, an address typed into the username field goes to the connection serving its domain.
  const typed = slug ? '' : formText(form, 'username', 254).trim();
  const connection = slug ? await findConnectionBySlug(ctx.db, slug) : typed ? await connectionForAddress(ctx, client.clientId, typed) : undefined;
  if (!offeredTo(connection, client.clientId)) {
    await recordFailure(ctx, 'connection_unavailable', slug || (typed ? 'realm' : '-'), client, context);
    return { error: 'federation_connection_unavailable' };
  }
  const trip = { state: randomValue(), nonce: randomValue(), codeVerifier: randomPKCECodeVerifier() };
  const binding = randomValue();
  // The connection may keep the hint to itself (passLoginHint off): the upstream then asks for the account.
  const hint = !connection.passLoginHint ? undefined : typed || (typeof interaction.params.login_hint === 'string' ? interaction.params.login_hint : undefined);
  // prompt=login and max_age (OIDC Core §3.1.2.1) go upstream too, and its auth_time is checked on the way back.
  const prompt = typeof interaction.params.prompt === 'string' && interaction.params.prompt.split(' ').includes('login') ? 'login' : undefined;
  const maxAge = requestedMaxAge(interaction.params.max_age);
  const freshness = { ...(maxAge === undefined ? {} : { maxAge }), ...(prompt ? { since: ctx.now() } : {}) };
  let redirect: string;
  try {
    redirect = await authorizationUrl(ctx.db, connection, callbackUrl(ctx.config.ISSUER), trip, { prompt, login_hint: hint, max_age: maxAge }, ctx.now());
  } catch (error) {
    const reason = error instanceof FederationFailure ? error.reason : 'unreachable';
    ctx.log.warn({ connection: connection.slug, reason, err: error instanceof FederationFailure ? error.cause : error }, 'upstream sign-in could not start');
    await recordFailure(ctx, reason, connection.slug, client, context);
    return { error: `federation_${reason}` };
  }
  const expiresAt = Math.min(interaction.exp * 1000, ctx.now() + ROUND_TRIP_TTL_MS);
  await saveState(
    ctx.db,
    trip.state,
    { uid, connectionId: connection.id, nonce: trip.nonce, codeVerifier: trip.codeVerifier, ...freshness },
    binding,
    expiresAt,
  );
  return { redirect, cookies: [bindingCookie(binding, ctx.config.ISSUER.startsWith('https:'))] };
});

/**
 * Where step 2 sends the browser: on to the interaction, or a page that says what went wrong.
 * `endsRoundTrip`: the state was this browser's, so its binding cookie goes; a callback with an unknown
 * state (forged, or replayed) leaves it, so a link planted elsewhere cannot end a sign-in under way.
 */
export interface CallbackOutcome {
  redirect: string;
  endsRoundTrip: boolean;
}

const cookieValue = (cookie: string | null, name: string) =>
  cookie
    ?.split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${name}=`))
    ?.slice(name.length + 1);

/** Step 2: the upstream's redirect back to Gatehouse (`url`: the request's URL; only its query is read). */
export async function federationCallback(ctx: AppContext, url: URL, cookie: string | null, context: RequestContext): Promise<CallbackOutcome> {
  const issuer = ctx.config.ISSUER;
  const errorPage = (reason: FederationFailureReason, uid?: string) => {
    const page = new URL('/federation/error', issuer);
    page.searchParams.set('reason', reason);
    if (uid) page.searchParams.set('uid', uid);
    return { redirect: page.toString(), endsRoundTrip: false };
  };
  const state = url.searchParams.get('state');
  const taken = state && state.length <= 200 ? await takeState(ctx.db, state, cookieValue(cookie, BINDING_COOKIE), ctx.now()) : { found: false };
  if (!taken.trip) {
    await recordFailure(ctx, 'state_invalid', '-', {}, context);
    return errorPage('state_invalid');
  }
  if (taken.trip.link) {
    // A link started on /account (lib/federation/account-link.ts), not a sign-in.
    const response = new URL(CALLBACK_PATH, issuer);
    response.search = url.search;
    return { redirect: await finishAccountLink(ctx, { ...taken.trip, link: taken.trip.link }, response, state as string, context), endsRoundTrip: true };
  }
  const { uid, connectionId } = taken.trip;
  const connection = await findConnection(ctx.db, connectionId);
  const params = await interactionParams(ctx, uid);
  const clientId = typeof params?.client_id === 'string' ? params.client_id : undefined;
  const client = clientId ? { clientId, clientName: (await clientForDisplay(ctx, clientId))?.name } : {};
  const fail = async (reason: FederationFailureReason) => {
    await recordFailure(ctx, reason, connection?.slug ?? '-', client, context);
    // The sign-in page says it, with the way to try again or back to the app; a gone interaction gets the page of its own.
    const redirect = params ? new URL(`/interaction/${encodeURIComponent(uid)}?error=federation_${reason}`, issuer).toString() : errorPage(reason).redirect;
    return { redirect, endsRoundTrip: true };
  };
  if (!params) return fail('expired');
  if (!clientId || !offeredTo(connection, clientId)) return fail('connection_unavailable');
  const upstreamError = url.searchParams.get('error');
  if (upstreamError) return fail(upstreamError === 'access_denied' ? 'access_denied' : 'upstream_error');
  // The URL as registered (the issuer's origin), with the upstream's query: openid-client reads the response from it.
  const response = new URL(CALLBACK_PATH, issuer);
  response.search = url.search;
  let profile: Awaited<ReturnType<typeof exchangeCode>>;
  try {
    profile = await exchangeCode(ctx.db, connection, response, { ...taken.trip, state: state as string }, ctx.now());
  } catch (error) {
    if (!(error instanceof FederationFailure)) throw error;
    ctx.log.warn({ connection: connection.slug, reason: error.reason, err: error.cause }, 'upstream sign-in refused');
    return fail(error.reason);
  }
  await saveResult(ctx.db, uid, { ...profile, connectionId }, ctx.now() + ROUND_TRIP_TTL_MS);
  return { redirect: new URL(`/interaction/${encodeURIComponent(uid)}/federation`, issuer).toString(), endsRoundTrip: true };
}

/** Step 3: the interaction's own step, with its cookie. */
export async function completeFederatedSignIn(ctx: AppContext, uid: string, cookie: string | null, context: RequestContext): Promise<InteractionOutcome> {
  const interaction = await current(ctx, uid, cookie, 'login');
  if ('error' in interaction) return interaction;
  const client = await clientOf(ctx, interaction);
  const profile = await takeResult(ctx.db, uid, ctx.now());
  const connection = profile ? await findConnection(ctx.db, profile.connectionId) : undefined;
  const fail = async (reason: FederationFailureReason): Promise<InteractionOutcome> => {
    await recordFailure(ctx, reason, connection?.slug ?? '-', client, context);
    return { error: `federation_${reason}` };
  };
  if (!profile) return fail('state_invalid');
  if (!offeredTo(connection, client.clientId)) return fail('connection_unavailable');
  const at = new Date(ctx.now());
  const identity = await findIdentity(ctx.db, profile.issuer, profile.subject);
  if (identity) {
    const account = await findAccount(ctx.db, identity.userId);
    if (!account || account.disabled) return fail('account_disabled');
    await touchIdentity(ctx.db, identity.id, at, profile.email, connection.keepTokens ? profile.tokens : undefined);
    return signInAs(ctx, uid, cookie, interaction, { id: account.id, username: account.username }, connection, profile, client, context);
  }
  const holder = profile.email ? await findUserIdByEmail(ctx.db, profile.email) : undefined;
  if (holder) {
    // The address names an account here: only its owner, proving it now, may link (lib/federation/linking.ts).
    const account = await findAccount(ctx.db, holder.id);
    if (!profile.emailVerified || !account?.emailVerified || !profile.email) return fail('email_unverified');
    const link = { connectionId: connection.id, issuer: profile.issuer, subject: profile.subject, email: profile.email };
    await savePendingLink(ctx.db, uid, link, interaction.exp * 1000);
    return { redirect: new URL(`/interaction/${encodeURIComponent(uid)}`, ctx.config.ISSUER).toString() };
  }
  if (!connection.jitCreate) return fail('no_account');
  const person = await createJustInTime(ctx, connection, profile, at, context);
  if (connection.jitState === 'disabled') return fail('account_disabled');
  return signInAs(ctx, uid, cookie, interaction, person, connection, profile, client, context);
}

/** A new account for an unknown identity, with the identity linked; its address only when the upstream vouches for it. */
async function createJustInTime(ctx: AppContext, connection: ConnectionRecord, profile: StoredProfile, at: Date, context: RequestContext) {
  const username = await justInTimeUsername(ctx.db, profile);
  const email = profile.emailVerified ? profile.email : null;
  const user = await insertUser(ctx.db, { username, email: null, name: profile.name, passwordHash: null, role: 'user' });
  if (email) await setVerifiedEmail(ctx.db, user.id, email);
  if (connection.jitState === 'disabled') await setUserDisabled(ctx.db, user.id, true);
  const person = { id: user.id, username: user.username };
  await recordAudit(ctx.db, { action: 'user.created', actor: null, target: userTarget(person), context, details: { role: 'user', email } });
  // The account was made for this identity this instant: already linked elsewhere means a concurrent first sign-in.
  if (!(await addIdentity(ctx.db, person, connection, profile, at, 'just_in_time', context))) throw new Error('the identity was linked meanwhile');
  return person;
}

/**
 * The identity's account signs in. Trusted for multi-factor and the upstream says it used more than
 * one factor (`mfa` in its amr): done, acr mfa. Otherwise the upstream sign-in stands where a password
 * would, and Gatehouse's own second step follows when the account has one or the policy asks for it.
 */
async function signInAs(
  ctx: AppContext,
  uid: string,
  cookie: string | null,
  interaction: Interaction,
  person: { id: string; username: string },
  connection: ConnectionRecord,
  profile: StoredProfile,
  client: { clientId: string; clientName?: string },
  context: RequestContext,
): Promise<InteractionOutcome> {
  const details = { ...client, connection: connection.slug };
  if (connection.upstreamLogout) {
    // For the logout at Gatehouse to go on to the upstream's (lib/federation/upstream-logout.ts).
    await saveFederatedSession(ctx.db, uid, { connectionId: connection.id, idToken: profile.tokens?.id_token }, interaction.exp * 1000);
  }
  if (connection.trustedForMfa && profile.amr.includes('mfa')) {
    ctx.metrics.signIn('succeeded');
    await recordAudit(ctx.db, { action: 'sign_in.succeeded', actor: person, target: userTarget(person), context, details });
    const amr = ['fed', ...profile.amr.filter((value) => /^[a-z]{2,10}$/.test(value) && value !== 'fed')];
    const redirect = await finishInteraction(
      ctx,
      uid,
      cookie,
      { login: { accountId: person.id, acr: ACR.mfa, amr, remember: false } },
      { mergeWithLastSubmission: false },
    );
    return { redirect };
  }
  return completePasswordStep(ctx, uid, cookie, interaction, person, details, context, false, 'fed');
}
