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

export function authorizationUrl(target: Target, { challenge }: Pkce): URL {
  const url = new URL('/oauth/authorize', target.base);
  url.search = new URLSearchParams({
    client_id: target.client.id,
    response_type: 'code',
    redirect_uri: target.client.redirectUri,
    scope: target.client.scope,
    state: randomBytes(8).toString('base64url'),
    code_challenge: challenge,
    code_challenge_method: 'S256',
  }).toString();
  return url;
}

/**
 * One authorization request as a person: login form (argon2id on the server),
 * consent form, back to the client with a code. With a browser that already
 * holds a session and a grant, the provider answers with the code directly.
 */
export async function authorize(browser: Browser): Promise<{ code: string; verifier: string }> {
  const { target } = browser;
  const p = pkce();
  const location = await signInAt(browser, authorizationUrl(target, p), target.user);
  const code = location.searchParams.get('code');
  if (!code) throw new Error(`${target.name}: no code in ${location} (${location.searchParams.get('error_description') ?? ''})`);
  return { code, verifier: p.verifier };
}

export const basicAuth = (target: Target) =>
  `Basic ${Buffer.from(`${encodeURIComponent(target.client.id)}:${encodeURIComponent(target.client.secret)}`).toString('base64')}`;

export function codeRedemptionBody(target: Target, code: { code: string; verifier: string }): string {
  return new URLSearchParams({
    grant_type: 'authorization_code',
    code: code.code,
    redirect_uri: target.client.redirectUri,
    code_verifier: code.verifier,
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
export function mintCodes(browsers: Browser[], count: number, concurrency = 8) {
  return pool(count, concurrency, (i) => authorize(browsers[i % browsers.length]));
}
