/**
 * Fixtures for the admin JSON API's protocol tests: an admin-API client
 * registered through the services (as `gatehouse client create --admin-api`
 * would), its client_credentials token, JSON requests, and an admin signed in
 * to the portal through next-auth for the cookie-authenticated path.
 */
import assert from 'node:assert/strict';
import { totpCode } from '../../lib/factors/totp.ts';
import { TestBrowser, credentials } from './browser.ts';
import { baseUrl, basic, databaseUrl, makeClient, makeUser, post } from './fixtures.ts';
import { database } from '../../lib/db/database.ts';
import type { AdminRole } from '../../lib/admin-roles/roles.ts';

/** An admin-API client; `role`: the admin role it acts with (registered as admin, then changed in the database). */
export async function makeAdminApiClient(role?: AdminRole) {
  const client = await makeClient({
    name: `Automation ${Date.now()}`,
    grantTypes: ['client_credentials'],
    redirectUris: [],
    postLogoutRedirectUris: [],
    scopes: ['admin'],
    adminApi: true,
  });
  if (role) await database(databaseUrl).prisma.client.update({ where: { id: client.id }, data: { adminRole: role } });
  return client;
}

/** A client_credentials token (RFC 6749 §4.4) with `scope`; the token endpoint's answer when it refuses. */
export async function clientCredentials(client: { id: string; clientSecret?: string }, scope?: string) {
  const response = await post(
    '/oauth/token',
    { grant_type: 'client_credentials', ...(scope ? { scope } : {}) },
    { authorization: basic(client.id, client.clientSecret!) },
  );
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

export async function adminToken(client: { id: string; clientSecret?: string }): Promise<string> {
  const { status, body } = await clientCredentials(client, 'admin');
  assert.equal(status, 200, JSON.stringify(body));
  assert.equal(body.scope, 'admin');
  return body.access_token;
}

export interface ApiAnswer {
  status: number;
  headers: Headers;
  body: any;
}

/** One admin API request: a JSON body (or raw text, to send something broken), a Bearer token, any headers. */
export async function api(
  method: string,
  path: string,
  options: { token?: string; json?: unknown; raw?: string; headers?: Record<string, string>; browser?: TestBrowser } = {},
): Promise<ApiAnswer> {
  const headers: Record<string, string> = { ...(options.token ? { authorization: `Bearer ${options.token}` } : {}), ...options.headers };
  let body: string | undefined;
  if (options.json !== undefined || options.raw !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = options.raw ?? JSON.stringify(options.json);
  }
  const init = { method, headers, body };
  const response = options.browser ? await options.browser.request(path, init) : await fetch(new URL(path, baseUrl), init);
  const text = await response.text();
  // JSON answers are parsed; anything else (an export's JSON lines or CSV) is handed back as its text.
  const json = /^application\/(?:[\w.+-]+\+)?json\b/i.test(response.headers.get('content-type') ?? 'application/json');
  return { status: response.status, headers: response.headers, body: text ? (json ? JSON.parse(text) : text) : undefined };
}

/**
 * A user signs in to the portal the way a browser does: /admin/sign-in, which goes
 * straight to Gatehouse's login form, the callback, then /admin (a 403 page for
 * anyone but an admin). Returns the browser holding the portal session cookie.
 */
export async function portalSignIn(user: { username: string; password: string; totpSecret?: string }) {
  const browser = new TestBrowser(baseUrl);
  let step = await browser.navigate(`/admin/sign-in?callbackUrl=${encodeURIComponent('/admin')}`);
  const login = await step.response.text();
  assert.ok(login.includes('/login"'), `expected Gatehouse's login form at ${step.url}`);
  step = await browser.submit(login, '/login', credentials(user));
  if (user.totpSecret) {
    // An admin's code step (fixtures.ts turns TOTP on for admins, as the default policy requires).
    step = await browser.submit(await step.response.text(), '/second-factor', { method: 'totp', code: totpCode(user.totpSecret, Date.now()) });
  }
  assert.match(step.url.pathname, /^\/admin(\/|$)/, 'signed in, the browser lands on the portal');
  return { browser, landing: step.response.status };
}

export async function portalAdmin() {
  const admin = await makeUser({ role: 'admin' });
  const { browser, landing } = await portalSignIn(admin);
  assert.equal(landing, 200);
  return { admin, browser };
}
