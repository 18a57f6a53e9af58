/**
 * The round trip to an upstream identity provider, with openid-client as the relying party:
 * discovery (OpenID Connect) or the configured endpoints (OAuth 2.0), the authorization URL with
 * state, nonce and PKCE (S256), and the code exchanged for tokens whose ID token openid-client
 * checks: signature by the upstream's JWKS, issuer, audience, expiry, nonce (OIDC Core §3.1.3.7),
 * with the algorithm limited to the asymmetric ones below. OAuth 2.0 connections (GitHub-shaped,
 * no ID token) read the person from the profile endpoint and the verified address from the emails
 * endpoint. Nothing here stores anything; lib/federation/sign-in.ts keeps what must outlive a request.
 */
import 'server-only';
import * as oidc from 'openid-client';
import type { Database } from '../db/database.ts';
import { FederationFailure } from './errors.ts';
import { findConnectionSecret, type ConnectionRecord } from './repository.ts';
import { isLoopbackHttp } from './loopback.ts';

/**
 * The ID token algorithms accepted, whatever the upstream advertises: asymmetric only, so neither
 * `none` nor an HMAC keyed with the upstream's public key (the classic key-confusion attack) passes.
 */
export const ACCEPTED_ID_TOKEN_ALGS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'] as const;

/** Seconds each upstream request may take: a hung upstream must not hold the person's page. */
const UPSTREAM_TIMEOUT_SECONDS = 10;

/** What Gatehouse learned of the person, in the connection's claim mapping. */
export interface UpstreamProfile {
  issuer: string;
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
  username: string | null;
  /** RFC 8176 values the upstream reports (OpenID Connect `amr`), and its `acr`. */
  amr: string[];
  acr: string | null;
  /** Only when the connection keeps them. */
  tokens?: { access_token: string; refresh_token?: string; expires_at?: number; id_token?: string };
}

const issuerOf = (connection: ConnectionRecord) => connection.issuer ?? new URL(connection.authorizationEndpoint ?? '').origin;

/** Discovered configurations, per connection version, for a few minutes: failures are not kept. */
const DISCOVERY_TTL_MS = 5 * 60 * 1000;
const discovered = new Map<string, { config: Promise<oidc.Configuration>; expiresAt: number }>();

async function configure(db: Database, connection: ConnectionRecord): Promise<oidc.Configuration> {
  const secret = await findConnectionSecret(db, connection.id);
  const auth = secret ? oidc.ClientSecretPost(secret) : oidc.None();
  const insecure = [connection.issuer, connection.authorizationEndpoint, connection.tokenEndpoint].some((url) => url && isLoopbackHttp(url));
  const execute = insecure ? [oidc.allowInsecureRequests] : [];
  if (connection.kind === 'oidc') {
    // The allow-list: openid-client checks the ID token's header against the client's alg, or any of a list of them.
    const metadata = { id_token_signed_response_alg: ACCEPTED_ID_TOKEN_ALGS as unknown as string };
    const config = await oidc.discovery(new URL(connection.issuer ?? ''), connection.clientId, metadata, auth, { execute, timeout: UPSTREAM_TIMEOUT_SECONDS });
    return config;
  }
  const server = {
    issuer: issuerOf(connection),
    authorization_endpoint: connection.authorizationEndpoint ?? undefined,
    token_endpoint: connection.tokenEndpoint ?? undefined,
  };
  const config = new oidc.Configuration(server, connection.clientId, undefined, auth);
  config.timeout = UPSTREAM_TIMEOUT_SECONDS;
  if (insecure) oidc.allowInsecureRequests(config);
  return config;
}

async function configuration(db: Database, connection: ConnectionRecord, now: number): Promise<oidc.Configuration> {
  const key = `${connection.id}:${connection.updatedAt.getTime()}`;
  const hit = discovered.get(key);
  if (hit && hit.expiresAt > now) return hit.config;
  if (discovered.size > 100) discovered.clear();
  const config = configure(db, connection);
  discovered.set(key, { config, expiresAt: now + DISCOVERY_TTL_MS });
  config.catch(() => discovered.delete(key));
  try {
    return await config;
  } catch (error) {
    throw new FederationFailure('unreachable', { cause: error });
  }
}

/** What a round trip must carry from the authorization request to the callback, kept server-side. */
export interface RoundTrip {
  state: string;
  nonce: string;
  codeVerifier: string;
  /** Seconds: the upstream sign-in may be at most this old (the Gatehouse request's max_age). */
  maxAge?: number;
  /** Epoch ms: prompt=login, the upstream sign-in must be after this (when the round trip started). */
  since?: number;
}

/** Clock difference tolerated between Gatehouse and the upstream when comparing auth_time. */
const AUTH_TIME_SKEW_SECONDS = 30;

/**
 * OIDC Core §3.1.2.1: with max_age or prompt=login the upstream must have signed the person in recently,
 * which its ID token's auth_time says. An upstream that sends no auth_time is taken at its word (many
 * omit it unless asked); one whose auth_time is too old did not honour the request: refused.
 */
export function freshEnough(authTime: unknown, trip: Pick<RoundTrip, 'maxAge' | 'since'>, now: number): boolean {
  if (typeof authTime !== 'number') return true;
  const seconds = now / 1000;
  if (trip.maxAge !== undefined && seconds - authTime > trip.maxAge + AUTH_TIME_SKEW_SECONDS) return false;
  if (trip.since !== undefined && authTime < trip.since / 1000 - AUTH_TIME_SKEW_SECONDS) return false;
  return true;
}

/** The upstream's authorization URL for one round trip; `redirectUri` is Gatehouse's callback. */
export async function authorizationUrl(
  db: Database,
  connection: ConnectionRecord,
  redirectUri: string,
  trip: RoundTrip,
  passthrough: { prompt?: string; login_hint?: string; max_age?: number },
  now: number,
): Promise<string> {
  const config = await configuration(db, connection, now);
  const params: Record<string, string> = { redirect_uri: redirectUri, scope: connection.scopes, state: trip.state };
  if (connection.kind === 'oidc') params.nonce = trip.nonce;
  if (connection.pkce) {
    params.code_challenge = await oidc.calculatePKCECodeChallenge(trip.codeVerifier);
    params.code_challenge_method = 'S256';
  }
  if (passthrough.prompt === 'login' || passthrough.prompt === 'select_account') params.prompt = passthrough.prompt;
  if (passthrough.login_hint) params.login_hint = passthrough.login_hint.slice(0, 254);
  if (passthrough.max_age !== undefined && connection.kind === 'oidc') params.max_age = String(passthrough.max_age);
  return oidc.buildAuthorizationUrl(config, params).href;
}

/** Whether an openid-client failure means the upstream did not answer usably (rather than answered wrongly). */
function unreachable(error: unknown): boolean {
  if (error instanceof TypeError) return true; // fetch failed: refused, reset, DNS
  if (error instanceof DOMException) return true; // the timeout's abort
  if (error instanceof oidc.ResponseBodyError) return error.status >= 500;
  const code = (error as { code?: string }).code;
  if (code === 'OAUTH_RESPONSE_IS_NOT_CONFORM' || code === 'OAUTH_RESPONSE_IS_NOT_JSON') {
    const status = ((error as { cause?: unknown }).cause as Response | undefined)?.status;
    return status === undefined || status >= 500;
  }
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof TypeError || cause instanceof DOMException;
}

/**
 * Exchanges the callback's code (`callbackUrl`: the whole URL the upstream sent the browser to) and
 * returns who signed in. Throws FederationFailure: `unreachable`, `upstream_error` (the upstream
 * refused the code), `token_invalid` (a check failed).
 */
export async function exchangeCode(db: Database, connection: ConnectionRecord, callbackUrl: URL, trip: RoundTrip, now: number): Promise<UpstreamProfile> {
  const config = await configuration(db, connection, now);
  const checks = {
    expectedState: trip.state,
    pkceCodeVerifier: connection.pkce ? trip.codeVerifier : undefined,
    ...(connection.kind === 'oidc' ? { expectedNonce: trip.nonce, idTokenExpected: true } : {}),
  };
  let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
  try {
    tokens = await oidc.authorizationCodeGrant(config, callbackUrl, checks);
  } catch (error) {
    if (unreachable(error)) throw new FederationFailure('unreachable', { cause: error });
    if (error instanceof oidc.ResponseBodyError || error instanceof oidc.AuthorizationResponseError)
      throw new FederationFailure('upstream_error', { cause: error });
    throw new FederationFailure('token_invalid', { cause: error });
  }
  const kept = connection.keepTokens
    ? {
        access_token: tokens.access_token,
        refresh_token: tokens.refresh_token,
        expires_at: tokens.expires_in ? now + tokens.expires_in * 1000 : undefined,
        // Kept for the upstream logout's id_token_hint (lib/federation/upstream-logout.ts).
        id_token: tokens.id_token,
      }
    : undefined;
  const profile =
    connection.kind === 'oidc' ? await oidcProfile(config, connection, tokens, trip, now) : await oauth2Profile(config, connection, tokens.access_token);
  return kept ? { ...profile, tokens: kept } : profile;
}

const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim().slice(0, 254) : null);

/** The person from the ID token's claims, and from userinfo for what the ID token leaves out (OIDC Core §5.4). */
async function oidcProfile(
  config: oidc.Configuration,
  connection: ConnectionRecord,
  tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>,
  trip: Pick<RoundTrip, 'maxAge' | 'since'>,
  now: number,
): Promise<UpstreamProfile> {
  const claims = tokens.claims();
  if (!claims) throw new FederationFailure('token_invalid');
  if (!freshEnough(claims.auth_time, trip, now))
    throw new FederationFailure('token_invalid', { cause: new Error('auth_time older than max_age or prompt=login allow') });
  let all: Record<string, unknown> = { ...claims };
  const mapping = { username: 'preferred_username', email: 'email', name: 'name', ...connection.claimMapping };
  const missing = [mapping.email, mapping.name, mapping.username].some((claim) => all[claim] === undefined);
  if (missing && config.serverMetadata().userinfo_endpoint) {
    try {
      // fetchUserInfo checks that the answer's sub is the ID token's (OIDC Core §5.3.4).
      all = { ...(await oidc.fetchUserInfo(config, tokens.access_token, claims.sub)), ...all };
    } catch (error) {
      if (unreachable(error)) throw new FederationFailure('unreachable', { cause: error });
      throw new FederationFailure('token_invalid', { cause: error });
    }
  }
  const amr = Array.isArray(claims.amr) ? claims.amr.filter((value): value is string => typeof value === 'string').slice(0, 10) : [];
  return {
    issuer: claims.iss,
    subject: claims.sub,
    email: text(all[mapping.email])?.toLowerCase() ?? null,
    emailVerified: all.email_verified === true,
    name: text(all[mapping.name]),
    username: text(all[mapping.username]),
    amr,
    acr: text(claims.acr),
  };
}

/**
 * A GitHub-shaped profile: `/user` for the id, login and name, `/user/emails` for the addresses with
 * their `verified` flag (the profile's own `email` is whatever the person made public, verified or not).
 */
async function oauth2Profile(config: oidc.Configuration, connection: ConnectionRecord, accessToken: string): Promise<UpstreamProfile> {
  const get = async (url: string | null) => {
    if (!url) return undefined;
    let response: Response;
    try {
      response = await oidc.fetchProtectedResource(config, accessToken, new URL(url), 'GET', undefined, new Headers({ accept: 'application/json' }));
    } catch (error) {
      throw new FederationFailure(unreachable(error) ? 'unreachable' : 'upstream_error', { cause: error });
    }
    if (response.status >= 500) throw new FederationFailure('unreachable');
    if (!response.ok) throw new FederationFailure('upstream_error');
    return (await response.json().catch(() => undefined)) as unknown;
  };
  const user = (await get(connection.userinfoEndpoint)) as Record<string, unknown> | undefined;
  const mapping = { username: 'login', email: 'email', name: 'name', subject: 'id', ...connection.claimMapping };
  const subject = user ? user[mapping.subject] : undefined;
  if (!user || (typeof subject !== 'string' && typeof subject !== 'number')) throw new FederationFailure('upstream_error');
  const emails = await get(connection.emailsEndpoint);
  const listed = Array.isArray(emails) ? (emails as { email?: unknown; verified?: unknown; primary?: unknown }[]) : [];
  // The primary verified address; else the profile's, as unverified.
  const primary = listed.find((entry) => entry.primary === true && entry.verified === true) ?? listed.find((entry) => entry.verified === true);
  const email = text(primary?.email) ?? text(user[mapping.email]);
  return {
    issuer: issuerOf(connection),
    subject: String(subject),
    email: email?.toLowerCase() ?? null,
    emailVerified: Boolean(primary && text(primary.email)),
    name: text(user[mapping.name]),
    username: text(user[mapping.username]),
    amr: [],
    acr: null,
  };
}

/**
 * RP-Initiated Logout 1.0 §2 at the upstream: its end_session_endpoint with `client_id` (so it knows whose
 * `post_logout_redirect_uri` to check, §3), the ID token it issued as `id_token_hint` when the connection
 * kept one, and `state`. Undefined when the upstream publishes no end_session_endpoint (OAuth 2.0 kinds never do).
 */
export async function endSessionUrl(
  db: Database,
  connection: ConnectionRecord,
  params: { postLogoutRedirectUri: string; state: string; idTokenHint?: string },
  now: number,
): Promise<string | undefined> {
  if (connection.kind !== 'oidc') return undefined;
  const config = await configuration(db, connection, now);
  if (!config.serverMetadata().end_session_endpoint) return undefined;
  const url = oidc.buildEndSessionUrl(config, {
    client_id: connection.clientId,
    post_logout_redirect_uri: params.postLogoutRedirectUri,
    state: params.state,
    ...(params.idTokenHint ? { id_token_hint: params.idTokenHint } : {}),
  });
  return url.href;
}
