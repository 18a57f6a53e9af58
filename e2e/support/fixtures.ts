/**
 * Fixtures for tests that talk to a running Gatehouse: each test makes its own
 * users and clients in the server's database, through the same services the CLI
 * uses, so tests never depend on each other's data.
 */
import { isAdminRole, type Role } from '../../lib/admin-roles/roles.ts';
import { randomBytes } from 'node:crypto';
import * as oidc from 'openid-client';
import { authorize, TestBrowser } from './browser.ts';
import { insertClient } from '../../lib/clients/repository.ts';
import { database } from '../../lib/db/database.ts';
import { generateClientSecret, hashClientSecret } from '../../lib/oidc/client-secret.ts';
import { registerClient, type NewClientInput } from '../../lib/clients/manage.ts';
import { beginTotpEnrolment, confirmTotpEnrolment, twoStepStatus } from '../../lib/account/two-step.ts';
import { TOTP_PERIOD, totpCode } from '../../lib/factors/totp.ts';
import { testContext } from '../../lib/testing.ts';
import { createUser } from '../../lib/users/manage.ts';

export const baseUrl = process.env.GATEHOUSE_TEST_URL ?? 'http://localhost:3000';
export const databaseUrl = process.env.GATEHOUSE_TEST_DATABASE_URL ?? 'file:./data/gatehouse.db';
export const redirectUri = 'http://127.0.0.1:9/callback';

const unique = () => randomBytes(6).toString('hex');

/**
 * A user who signs in with `password`. An admin gets TOTP turned on (`totpSecret`), as the default policy
 * (SECOND_FACTOR_REQUIRED=admins) requires before the portal lets them in; `secondFactor: false` leaves it
 * off, for the tests of that policy. gatehouseLogin (pages.ts) types the code when there is a secret.
 */
export async function makeUser(overrides: { email?: string; name?: string; role?: Role; secondFactor?: boolean } = {}) {
  const username = `user-${unique()}`;
  const password = `pw-${randomBytes(12).toString('base64url')}`;
  const role = overrides.role ?? 'user';
  const user = await createUser(database(databaseUrl), {
    username,
    password,
    email: overrides.email ?? `${username}@example.test`,
    name: overrides.name ?? 'Test Person',
    role,
  });
  const totpSecret = (overrides.secondFactor ?? isAdminRole(role)) ? (await enrolTotp(user)).secret : undefined;
  return { ...user, password, totpSecret };
}

export async function makeClient(input: Partial<NewClientInput> = {}) {
  const { client, clientSecret } = await registerClient(database(databaseUrl), {
    name: `App ${unique()}`,
    redirectUris: [redirectUri],
    postLogoutRedirectUris: ['http://127.0.0.1:9/signed-out'],
    ...input,
  });
  return { ...client, clientSecret };
}

/**
 * A client row written straight into the database, past the registration
 * schema: a registration made before a rule existed, which the server must
 * not honour beyond what the rule allows.
 */
export async function storedClient(row: { confidential: boolean; grantTypes: string[]; scope: string; resourceServer: boolean; redirectUris?: string[] }) {
  const clientSecret = row.confidential ? generateClientSecret() : undefined;
  const client = await insertClient(database(databaseUrl), {
    id: `stored-${unique()}`,
    name: `Stored ${unique()}`,
    secretHash: clientSecret ? hashClientSecret(clientSecret) : null,
    redirectUris: row.redirectUris ?? (row.grantTypes.includes('authorization_code') ? [redirectUri] : []),
    postLogoutRedirectUris: [],
    grantTypes: row.grantTypes,
    scope: row.scope,
    tokenEndpointAuthMethod: row.confidential ? 'client_secret_basic' : 'none',
    applicationType: 'web',
    logoUri: null,
    firstParty: false,
    resourceServer: row.resourceServer,
    adminApi: false,
    idTokenSignedResponseAlg: 'ES256',
  });
  return { ...client, clientSecret };
}

/** openid-client configured by discovery alone, as a relying party would be; `issuer`: another instance than the suite's. */
export async function discover(client: { id: string; clientSecret?: string; tokenEndpointAuthMethod: string }, issuer = baseUrl) {
  const auth =
    client.tokenEndpointAuthMethod === 'none'
      ? oidc.None()
      : client.tokenEndpointAuthMethod === 'client_secret_post'
        ? oidc.ClientSecretPost(client.clientSecret)
        : oidc.ClientSecretBasic(client.clientSecret);
  try {
    return await oidc.discovery(new URL(issuer), client.id, undefined, auth, { execute: [oidc.allowInsecureRequests] });
  } catch (error) {
    // openid-client says only that the body was not JSON (a CI run's backchannel-logout test, once, on an instance
    // it had just restarted): what the issuer answers now goes with the error, so the next one shows who answered.
    const again = await fetch(new URL('/.well-known/openid-configuration', issuer)).then(
      async (response) => `${response.status} ${response.headers.get('content-type')}: ${(await response.text()).slice(0, 300)}`,
      (failure: unknown) => String(failure),
    );
    throw new Error(`discovery of ${issuer} failed (${error instanceof Error ? error.message : error}); asked again, it answers ${again}`, { cause: error });
  }
}

export async function pkce() {
  const verifier = oidc.randomPKCECodeVerifier();
  return { verifier, challenge: await oidc.calculatePKCECodeChallenge(verifier) };
}

/**
 * An authorization request for `client` as a relying party builds it: by discovery,
 * with PKCE (S256) and state; `params` add to or override the defaults.
 */
export async function authorizationRequest(
  client: { id: string; clientSecret?: string; tokenEndpointAuthMethod: string },
  params: Record<string, string> = {},
  issuer = baseUrl,
) {
  const config = await discover(client, issuer);
  const { verifier, challenge } = await pkce();
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: 'openid profile email',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state,
    ...params,
  });
  return { config, verifier, state, url };
}

/** A form POST to a Gatehouse path. */
export function post(path: string, body: Record<string, string>, headers: Record<string, string> = {}) {
  return fetch(new URL(path, baseUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(body).toString(),
  });
}

export const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

type TestClient = Awaited<ReturnType<typeof makeClient>>;

/**
 * A new user signs in to `client` through the real login and consent forms;
 * returns the authorization code with everything needed to redeem it.
 */
export async function codeFlow(client: TestClient, scope = 'openid') {
  const user = await makeUser();
  const config = await discover(client);
  const { verifier, challenge } = await pkce();
  const callback = await authorize(
    new TestBrowser(baseUrl),
    oidc.buildAuthorizationUrl(config, { redirect_uri: redirectUri, scope, code_challenge: challenge, code_challenge_method: 'S256' }),
    user,
  );
  return { user, config, verifier, callback, code: callback.searchParams.get('code')! };
}

/** codeFlow, then the code redeemed by openid-client. */
export async function signIn(client: TestClient, scope = 'openid') {
  const flow = await codeFlow(client, scope);
  const tokens = await oidc.authorizationCodeGrant(flow.config, flow.callback, { pkceCodeVerifier: flow.verifier });
  return { ...flow, tokens };
}

/**
 * Turns TOTP on for `user` through the service layer, confirmed with the previous step's code (so the
 * current one is unused): its secret, to compute codes with, and the recovery codes shown once.
 */
export async function enrolTotp(user: { id: string; username: string }): Promise<{ secret: string; recoveryCodes: string[] }> {
  // One instant for the code and its check: with the clock running, a step's boundary falling between the two
  // (a busy machine's hundreds of milliseconds) made the previous step's code two steps old, and refused.
  const at = Date.now();
  const ctx = { ...testContext(database(databaseUrl)), now: () => at };
  const holder = { id: user.id, username: user.username };
  await beginTotpEnrolment(ctx, holder);
  const pending = await twoStepStatus(ctx, holder);
  if (pending.status !== 'pending') throw new Error(`enrolTotp: no pending set-up (${pending.status})`);
  const form = new FormData();
  form.append('code', totpCode(pending.secret, at - TOTP_PERIOD * 1000));
  const confirmed = await confirmTotpEnrolment(ctx, holder, form);
  if (confirmed.status !== 'codes') throw new Error(`enrolTotp: the first code was refused (${confirmed.status})`);
  return { secret: pending.secret, recoveryCodes: confirmed.recoveryCodes };
}

/**
 * The query of a bare authorization request (code flow, PKCE S256, scope openid) for tests that
 * send it themselves rather than through a relying party; `extra` adds to or overrides it.
 */
export function authorizeQuery(client: { id: string }, challenge: string, extra: Record<string, string> = {}): URLSearchParams {
  return new URLSearchParams({
    client_id: client.id,
    response_type: 'code',
    redirect_uri: redirectUri,
    scope: 'openid',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...extra,
  });
}
