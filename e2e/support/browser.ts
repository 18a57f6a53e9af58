/**
 * A minimal browser for protocol tests: follows redirects by hand, keeps
 * cookies with their paths (the provider scopes `_interaction` to
 * /interaction/:uid and `_interaction_resume` to /oauth/authorize/:uid), and
 * submits the real login and consent forms it finds in the HTML.
 */
import assert from 'node:assert/strict';
import { totpCode } from '../../lib/factors/totp.ts';

interface Cookie {
  name: string;
  value: string;
  path: string;
}

export class TestBrowser {
  private cookies: Cookie[] = [];
  /** Every value any cookie ever had here, for tests that look for them where they must not be. */
  private readonly cookieHistory = new Set<string>();

  /**
   * `formOrigin`: the Origin its form posts send, the server's own unless said
   * otherwise (an instance behind a load balancer is reached at another address
   * than the issuer's, while the browser's Origin is the issuer's). `send`: how a
   * request goes out, `fetch` unless a test wants to tag or count them.
   */
  readonly origin: string;
  private readonly formOrigin: string;
  private readonly send: typeof fetch;

  constructor(origin: string, formOrigin = origin, send: typeof fetch = fetch) {
    this.origin = origin;
    this.formOrigin = formOrigin;
    this.send = send;
  }

  private cookieHeader(url: URL): string {
    return this.cookies
      .filter((c) => url.pathname === c.path || url.pathname.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`) || c.path === '/')
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
  }

  private store(url: URL, response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';').map((s) => s.trim());
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      const attr = new Map(attributes.map((a) => [a.split('=')[0].toLowerCase(), a.split('=').slice(1).join('=')]));
      const path = attr.get('path') || url.pathname.replace(/\/[^/]*$/, '') || '/';
      const expired = attr.get('max-age') === '0' || (attr.has('expires') && Date.parse(attr.get('expires')!) < Date.now());
      this.cookies = this.cookies.filter((c) => !(c.name === name && c.path === path));
      if (!expired) this.cookies.push({ name, value, path });
      if (value) this.cookieHistory.add(value);
    }
  }

  /** Drops every cookie but those named: a browser whose session ended that keeps, say, its device cookie. */
  keepOnly(names: string[]) {
    this.cookies = this.cookies.filter((c) => names.includes(c.name));
  }

  /** A cookie's value as this browser holds it (for tests that reason about cookies themselves). */
  cookie(name: string): string | undefined {
    return this.cookies.find((c) => c.name === name)?.value;
  }

  /** Every cookie value the server ever set in this browser, expired ones included. */
  cookieValues(): string[] {
    return [...this.cookieHistory];
  }

  /** One request, no redirect following. */
  async request(input: string | URL, init: RequestInit = {}): Promise<Response> {
    const url = new URL(input, this.origin);
    const headers = new Headers(init.headers);
    const cookie = this.cookieHeader(url);
    if (cookie) headers.set('cookie', cookie);
    const response = await this.send(url, { ...init, headers, redirect: 'manual' });
    this.store(url, response);
    return response;
  }

  /**
   * Follows redirects while they stay on this origin; returns the last response
   * and its URL. A redirect elsewhere (the client's redirect_uri) is returned
   * unfollowed, as `location`.
   */
  async navigate(input: string | URL, init: RequestInit = {}): Promise<{ response: Response; url: URL; location?: URL }> {
    let url = new URL(input, this.origin);
    let response = await this.request(url, init);
    for (let hops = 0; hops < 20; hops++) {
      const location = response.headers.get('location');
      if (!location || response.status < 300 || response.status >= 400) return { response, url };
      const next = new URL(location, url);
      if (next.origin !== this.origin) return { response, url, location: next };
      url = next;
      response = await this.request(url);
    }
    throw new Error('too many redirects');
  }

  /** Submits the form whose action ends with `actionSuffix` on the page at `pageUrl`. */
  async submit(html: string, actionSuffix: string, fields: Record<string, string> = {}) {
    const action = [...html.matchAll(/<form[^>]*action="([^"]+)"/g)].map((m) => m[1].replace(/&amp;/g, '&')).find((a) => a.endsWith(actionSuffix));
    assert.ok(action, `no form posting to *${actionSuffix} on the page`);
    return this.navigate(action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: this.formOrigin },
      body: new URLSearchParams(fields).toString(),
    });
  }
}

/** Only what a person types into the login form. */
export const credentials = (user: { username: string; password: string }) => ({ username: user.username, password: user.password });

/**
 * Drives an authorization request through login and (when asked) consent, the
 * way a person would, and returns the URL the browser is sent back to.
 */
export async function authorize(
  browser: TestBrowser,
  authorizationUrl: URL,
  user: { username: string; password: string; totpSecret?: string },
  options: { consent?: 'allow' | 'deny' } = {},
): Promise<URL> {
  let step = await browser.navigate(authorizationUrl);
  for (let i = 0; i < 5 && !step.location; i++) {
    const html = await step.response.text();
    assert.equal(step.response.status, 200, `unexpected ${step.response.status} at ${step.url}: ${html.slice(0, 300)}`);
    if (html.includes('/second-factor"') && user.totpSecret) {
      step = await browser.submit(html, '/second-factor', { method: 'totp', code: totpCode(user.totpSecret, Date.now()) });
    } else if (html.includes('/login"')) {
      step = await browser.submit(html, '/login', credentials(user));
    } else if (html.includes('/confirm"')) {
      step = await browser.submit(html, options.consent === 'deny' ? '/abort' : '/confirm');
    } else {
      assert.fail(`neither a login nor a consent page at ${step.url}: ${html.slice(0, 300)}`);
    }
  }
  assert.ok(step.location, 'the flow did not return to the client');
  return step.location;
}
