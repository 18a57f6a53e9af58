// runs-on: mounts
// A Content-Security-Policy (CSP Level 3) on every page: a fresh nonce for Next's scripts,
// a hash for the provider's one inline style and script, never 'unsafe-inline' scripts.
// Strict-Transport-Security (RFC 6797) when the issuer is https, and only then.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { type IncomingHttpHeaders, request as httpRequest } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { TestBrowser, credentials } from '../support/browser.ts';
import { authorizeQuery, baseUrl, makeClient, makeUser, pkce, redirectUri } from '../support/fixtures.ts';
import { freePort, startInstance } from '../support/server.ts';

type Policy = Map<string, string[]>;

function policyOf(response: Response): Policy {
  const header = response.headers.get('content-security-policy');
  assert.ok(header, `${response.url} has no Content-Security-Policy`);
  const policy: Policy = new Map();
  for (const directive of header.split(';')) {
    const [name, ...values] = directive.trim().split(/\s+/);
    if (name) policy.set(name.toLowerCase(), values);
  }
  return policy;
}

/** What every policy says, pages and provider alike. */
function assertLockedDown(policy: Policy) {
  assert.ok(!policy.get('script-src')?.includes("'unsafe-inline'"), 'no inline scripts');
  assert.ok(!policy.get('script-src')?.includes("'unsafe-eval'"), 'no eval in production');
  assert.ok(!policy.get('style-src')?.includes("'unsafe-inline'"), 'no inline styles');
  assert.deepEqual(policy.get('frame-ancestors'), ["'none'"]);
  assert.deepEqual(policy.get('object-src'), ["'none'"]);
  assert.deepEqual(policy.get('base-uri'), ["'none'"]);
  // The sign-in form's redirect chain ends at the client's redirect_uri, which Chromium checks against form-action.
  assert.equal(policy.get('form-action'), undefined);
}

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/** A login page for a fresh authorization request. */
async function interactionPage(browser = new TestBrowser(baseUrl)) {
  const client = await makeClient();
  const { challenge } = await pkce();
  const params = authorizeQuery(client, challenge);
  const step = await browser.navigate(`/oauth/authorize?${params}`);
  assert.match(step.url.pathname, /^\/interaction\//);
  return step.url.pathname;
}

test("every page has a nonce-based policy, and each of Next's scripts carries that nonce", async () => {
  const paths = ['/', '/sign-in?error=OAuthCallback', '/admin/signed-out', '/account/signed-out', '/no-such-page', await interactionPage()];
  for (const path of paths) {
    const response = await fetch(new URL(path, baseUrl), { redirect: 'manual' });
    const policy = policyOf(response);
    assertLockedDown(policy);
    const script = policy.get('script-src')!;
    assert.ok(script.includes("'strict-dynamic'"), path);
    const nonces = script.filter((s) => s.startsWith("'nonce-"));
    assert.equal(nonces.length, 1, `${path}: ${script.join(' ')}`);
    const nonce = nonces[0].slice("'nonce-".length, -1);
    assert.ok(policy.get('style-src')!.includes(`'nonce-${nonce}'`));

    const html = await response.text();
    const tags = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    assert.ok(tags.length > 0, `${path} has scripts`);
    for (const tag of tags) assert.ok(tag.includes(` nonce="${nonce}"`), `${path}: ${tag}`);
  }
});

test('the nonce is new on every request', async () => {
  const nonce = async () => (await fetch(new URL('/', baseUrl))).headers.get('content-security-policy')!.match(/'nonce-([^']+)'/)![1];
  const seen = new Set([await nonce(), await nonce(), await nonce()]);
  assert.equal(seen.size, 3);
  for (const value of seen) assert.ok(Buffer.from(value, 'base64').length >= 16, 'at least 128 bits');
});

/** A browser signed in to Gatehouse (login and consent done), and the authorization request's parameters. */
async function signedIn(extra: Record<string, string> = {}) {
  const user = await makeUser();
  const client = await makeClient();
  const { challenge } = await pkce();
  const browser = new TestBrowser(baseUrl);
  const params = authorizeQuery(client, challenge, extra);
  let step = await browser.navigate(`/oauth/authorize?${params}`);
  step = await browser.submit(await step.response.text(), '/login', credentials(user));
  step = await browser.submit(await step.response.text(), '/confirm');
  return { browser, step };
}

test("the provider's own pages run no script and name their one inline style by hash", async () => {
  const { browser } = await signedIn();
  const pages = [
    (await browser.navigate('/oauth/logout')).response, // the logout confirmation
    await fetch(new URL('/oauth/authorize?client_id=no-such-client&response_type=code', baseUrl), { headers: { accept: 'text/html' } }),
  ];
  for (const response of pages) {
    const html = await response.text();
    assert.match(response.headers.get('content-type') ?? '', /^text\/html/, html.slice(0, 200));
    assert.doesNotMatch(html, /<script/);
    const policy = policyOf(response);
    assertLockedDown(policy);
    assert.deepEqual(policy.get('script-src'), ["'none'"]);
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1];
    assert.deepEqual(policy.get('style-src'), [sha256(style)]);
  }
});

test("the provider's self-submitting forms run their one script, allowed by its hash", async () => {
  const formPost = (await signedIn({ response_mode: 'form_post' })).step.response; // the code, posted to the client
  assert.match(await formPost.clone().text(), new RegExp(`<form method="post" action="${redirectUri}">`));
  const logout = await fetch(new URL('/oauth/logout', baseUrl)); // no session to ask about: straight to the confirmation
  for (const response of [formPost, logout]) {
    const html = await response.text();
    const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
    assert.equal(scripts.length, 1, html.slice(0, 300));
    const policy = policyOf(response);
    assertLockedDown(policy);
    assert.deepEqual(policy.get('script-src'), ["'none'", sha256(scripts[0])]);
  }
});

test('the static headers on pages and provider answers alike, each once', async () => {
  for (const path of ['/', '/oauth/jwks', '/oauth/logout']) {
    const response = await fetch(new URL(path, baseUrl));
    assert.equal(response.headers.get('x-content-type-options'), 'nosniff', path);
    assert.equal(response.headers.get('x-frame-options'), 'DENY', path);
    assert.equal(response.headers.get('referrer-policy'), 'same-origin', path);
    assert.equal(response.headers.get('content-security-policy')?.includes(','), false, `${path}: one policy`);
  }
});

/**
 * Sends a small body to `path`, chunked, or the first part of one declared as `declared`
 * bytes; returns the answer's status and headers.
 */
function partialBody(method: string, path: string, declared?: number): Promise<{ status?: number; headers: IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(new URL(path, baseUrl), {
      method,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: new URL(baseUrl).origin,
        ...(declared ? { 'content-length': String(declared) } : { 'transfer-encoding': 'chunked' }),
      },
    });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`${method} ${path}: no answer`));
    }, 15_000);
    req.on('response', (res) => {
      clearTimeout(timer);
      res.resume();
      req.destroy();
      resolve({ status: res.statusCode, headers: res.headers });
    });
    req.on('error', () => undefined); // closed after the answer
    req.write(`a=${'b'.repeat(1000)}`);
    // A chunked body ends (a reader of ours answers only then); a declared one stays short of what it declared.
    if (!declared) req.end();
  });
}

test('answers to requests the proxy does not see (a chunked body, one over its size) carry a policy too, which runs no script', async () => {
  for (const path of ['/', '/account', '/password-reset', '/no-such-page', '/api/no-such-api', '/interaction/no-such-uid/login']) {
    for (const declared of [undefined, 70 * 1024]) {
      for (const method of ['POST', 'GET']) {
        if (method === 'GET' && declared) continue; // a GET with a large declared body: the same rule as a POST's
        const answer = await partialBody(method, path, declared);
        const what = `${method} ${path} ${declared ? `declaring ${declared} bytes` : 'chunked'} (${answer.status})`;
        const header = answer.headers['content-security-policy'];
        assert.ok(typeof header === 'string' && header.length > 0, `${what}: no Content-Security-Policy`);
        assert.equal(header.includes(','), false, `${what}: one policy`);
        const policy = new Map(
          header
            .split(';')
            .map((d) => d.trim().split(/\s+/))
            .map(([name, ...values]) => [name, values] as [string, string[]]),
        );
        assertLockedDown(policy);
        assert.deepEqual(policy.get('script-src'), ["'none'"], what);
      }
    }
  }
});

describe('with an https issuer', () => {
  let url: string;
  let stop: () => void;

  let dir: string;

  // A database of its own: an instance registers the portal's redirect URIs for its issuer,
  // which would leave the suite's server with the https ones.
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-https-'));
    const port = await freePort();
    ({ url, stop } = await startInstance({ DATABASE_URL: `file:${join(dir, 'https.db')}`, ISSUER: `https://localhost:${port}` }, port));
  });
  after(async () => {
    stop?.();
    await new Promise((r) => setTimeout(r, 500));
    rmSync(dir, { recursive: true, force: true });
  });

  test('Strict-Transport-Security on pages, assets, provider answers and refusals; never with an http issuer', async () => {
    for (const path of ['/', '/oauth/jwks', '/oauth/logout', '/.well-known/openid-configuration']) {
      const response = await fetch(new URL(path, baseUrl));
      assert.equal(response.headers.get('strict-transport-security'), null, `the suite's http instance: ${path}`);
    }

    const home = await fetch(new URL('/', url));
    const asset = /<script src="([^"]+\.js)"/.exec(await home.text())![1];
    const answers = [
      home,
      await fetch(new URL(asset, url)),
      await fetch(new URL('/oauth/jwks', url)),
      await fetch(new URL('/oauth/logout', url)),
      await fetch(new URL('/oauth/token', url), { method: 'POST' }),
      await fetch(new URL('/interaction/no-such-uid/login', url), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(url).origin },
        body: 'username=a',
        redirect: 'manual',
      }),
      await fetch(new URL('/api/admin/users', url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: 'x'.repeat(100_000) }),
      await fetch(new URL('/admin/%', url)),
    ];
    for (const response of answers) {
      assert.equal(response.headers.get('strict-transport-security'), 'max-age=63072000; includeSubDomains', `${response.url} ${response.status}`);
    }
    assert.deepEqual(
      answers.slice(-2).map((r) => r.status),
      [413, 400],
    );
  });
});
