/**
 * The browser side of the benchmark, without a browser: the protocol tests'
 * TestBrowser (e2e/support/browser.ts: cookies with their paths, redirects,
 * the real login and consent forms), and the helpers that turn sign-ins into
 * authorization codes, refresh tokens and access tokens for the load rows.
 * Every server's issuer is http://127.0.0.1:<port>, so all traffic stays there.
 */
import { createHash, randomBytes } from 'node:crypto';
import { authorize as signInAt, TestBrowser } from '../e2e/support/browser.ts';

export interface Target {
  /** Row label: gatehouse-sqlite, gatehouse-postgresql, gatehouse-next-start, baseline. */
  name: string;
  /** Where traffic goes: http://127.0.0.1:<port>, the issuer (next start shares Gatehouse's). */
  base: string;
  /**
   * Several instances behind one issuer (postgresql-redis-x2): every one's origin, base first.
   * autocannon spreads the connections over them; sign-ins and code minting use base.
   */
  bases?: string[];
  client: { id: string; secret: string; redirectUri: string; scope: string };
  user: { username: string; password: string };
  /**
   * The JWT rows' API (bench/setup.ts registerBenchApi): its identifier, and the permission the client is granted
   * (client_credentials) and the user's role grants (code flow). Undefined where none is registered (the baseline).
   */
  api?: { resource: string; scope: string };
  /** The federated sign-in row: the connection to the bench's upstream and who signs in there (bench/federation.ts). */
  federation?: { slug: string; login: string };
}

/**
 * TestBrowser, releasing the body of every redirect it reads only the headers
 * of: thousands of codes are minted per run, and an unread body keeps its
 * connection from being reused.
 */
export class Browser extends TestBrowser {
  readonly target: Target;

  constructor(target: Target) {
    super(target.base);
    this.target = target;
  }

  override async request(input: string | URL, init: RequestInit = {}): Promise<Response> {
    const response = await super.request(input, init);
    if (response.status >= 300 && response.status < 400) await response.body?.cancel();
    return response;
  }
}

export interface Pkce {
  verifier: string;
  challenge: string;
}

export function pkce(): Pkce {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** With `forApi`, for the target's API (RFC 8707 `resource`, its permission in the scope): the code of a JWT access token. */
export function authorizationUrl(target: Target, { challenge }: Pkce, forApi = false): URL {
  const url = new URL('/oauth/authorize', target.base);
  const api = forApi ? target.api : undefined;
  if (forApi && !api) throw new Error(`${target.name}: no API registered for the JWT rows`);
  url.search = new URLSearchParams({
    client_id: target.client.id,
    response_type: 'code',
    redirect_uri: target.client.redirectUri,
    scope: api ? `${target.client.scope} ${api.scope}` : target.client.scope,
    state: randomBytes(8).toString('base64url'),
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...(api && { resource: api.resource }),
  }).toString();
  return url;
}

/**
 * One authorization request as a person: login form (argon2id on the server),
 * consent form, back to the client with a code. With a browser that already
 * holds a session and a grant, the provider answers with the code directly.
 */
export async function authorize(browser: Browser, forApi = false): Promise<{ code: string; verifier: string }> {
  const { target } = browser;
  const p = pkce();
  const location = await signInAt(browser, authorizationUrl(target, p, forApi), target.user);
  const code = location.searchParams.get('code');
  if (!code) throw new Error(`${target.name}: no code in ${location} (${location.searchParams.get('error_description') ?? ''})`);
  return { code, verifier: p.verifier };
}

export const basicAuth = (target: Target) =>
  `Basic ${Buffer.from(`${encodeURIComponent(target.client.id)}:${encodeURIComponent(target.client.secret)}`).toString('base64')}`;

export function codeRedemptionBody(target: Target, code: { code: string; verifier: string }, resource?: string): string {
  return new URLSearchParams({
    grant_type: 'authorization_code',
    code: code.code,
    redirect_uri: target.client.redirectUri,
    code_verifier: code.verifier,
    ...(resource && { resource }),
  }).toString();
}

export interface TokenSet {
  access_token: string;
  refresh_token?: string;
  id_token?: string;
}

export async function redeem(target: Target, code: { code: string; verifier: string }): Promise<TokenSet> {
  const response = await fetch(new URL('/oauth/token', target.base), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basicAuth(target) },
    body: codeRedemptionBody(target, code),
  });
  const body = (await response.json()) as TokenSet & { error?: string; error_description?: string };
  if (!response.ok) throw new Error(`${target.name}: token endpoint ${response.status}: ${body.error}: ${body.error_description}`);
  return body;
}

/** The whole sign-in of a new browser: authorize → login → consent → code → token. */
export async function fullSignIn(target: Target): Promise<TokenSet> {
  return redeem(target, await authorize(new Browser(target)));
}

const formPost = (fields: Record<string, string>): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});

/**
 * The whole sign-in of a new browser through the connection to the bench's upstream (the bare oidc-provider):
 * authorize → Gatehouse's sign-in page → its button → the upstream's login and consent (fresh cookie jar
 * there too) → Gatehouse's callback (ID token checked against the upstream's JWKS, the person found by issuer
 * and subject) → consent → code → token.
 */
export async function federatedSignIn(target: Target): Promise<TokenSet> {
  const { federation } = target;
  if (!federation) throw new Error(`${target.name}: no connection to the bench's upstream`);
  const browser = new Browser(target);
  const p = pkce();
  const page = await browser.navigate(authorizationUrl(target, p));
  const sent = await browser.submit(await page.response.text(), '/federation', { connection: federation.slug, client_id: target.client.id });
  if (!sent.location) throw new Error(`${target.name}: the connection's button did not lead upstream (${sent.url})`);
  const upstream = new TestBrowser(sent.location.origin);
  let step = await upstream.navigate(sent.location);
  for (let i = 0; i < 4 && !step.location; i++) {
    const html = await step.response.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (!action) throw new Error(`${target.name}: no form at the upstream (${step.url})`);
    step = await upstream.navigate(
      action,
      formPost(html.includes('name="login"') ? { prompt: 'login', login: federation.login, password: 'any' } : { prompt: 'consent' }),
    );
  }
  if (!step.location) throw new Error(`${target.name}: the upstream did not send the browser back`);
  let back = await browser.navigate(step.location);
  for (let i = 0; i < 3 && !back.location; i++) {
    const html = await back.response.text();
    if (!html.includes('/confirm"'))
      throw new Error(`${target.name}: back from the upstream, neither the app nor a consent page (${back.url}): ${html.slice(0, 200)}`);
    back = await browser.submit(html, '/confirm');
  }
  const code = back.location?.searchParams.get('code');
  if (!code) throw new Error(`${target.name}: no code in ${back.location} (${back.location?.searchParams.get('error_description') ?? ''})`);
  return redeem(target, { code, verifier: p.verifier });
}

/** Runs `task` `count` times, `concurrency` at a time. */
export async function pool<T>(count: number, concurrency: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array(count);
  let next = 0;
  const loop = async () => {
    while (next < count) {
      const i = next++;
      out[i] = await task(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, loop));
  return out;
}

/**
 * `count` fresh codes from signed-in browsers, 8 at a time (one request per code:
 * session and grant already exist). Many sessions spread the codes over many
 * grants, as many users would: oidc-provider's in-memory adapter (the
 * baseline's) does work proportional to a grant's token count on every save.
 */
export function mintCodes(browsers: Browser[], count: number, concurrency = 8, forApi = false) {
  return pool(count, concurrency, (i) => authorize(browsers[i % browsers.length], forApi));
}
