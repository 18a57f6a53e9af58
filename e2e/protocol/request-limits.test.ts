// runs-on: mounts
// Request bodies are bounded at every entry point (RFC 9110 §15.5.14 413, §15.5.12 411):
// a body whose Content-Length is too large is refused before it is read, a chunked one
// as soon as it passes the limit. Each request below sends its headers and 1 MB of a
// body, then neither the rest nor its end: an answer proves the server did not wait for it.
import assert from 'node:assert/strict';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { test } from 'node:test';
import { BODY_LIMITS } from '../../lib/http/body-limits.ts';
import { TestBrowser, credentials } from '../support/browser.ts';
import { serverActionId } from '../support/build.ts';
import { authorizeQuery, basic, baseUrl, makeClient, makeUser, pkce } from '../support/fixtures.ts';

const SENT = 1024 * 1024;
const DECLARED = 100 * 1024 * 1024;
/** Far longer than any answer takes; a server that waits for the body never answers. */
const PATIENCE_MS = 10_000;

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: { error?: string; error_description?: string };
}

/**
 * POSTs `sent` bytes of a body, declared as `declared` bytes (Content-Length) or
 * chunked when `declared` is undefined, and never finishes it.
 */
function postPart(path: string, headers: Record<string, string>, declared: number | undefined, sent = SENT): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(new URL(path, baseUrl), {
      method: 'POST',
      headers: declared === undefined ? headers : { ...headers, 'content-length': String(declared) },
    });
    let answered = false;
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`POST ${path}: no answer within ${PATIENCE_MS} ms, the server is waiting for the rest of the body`));
    }, PATIENCE_MS);
    req.on('response', (res) => {
      answered = true;
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        clearTimeout(timer);
        req.destroy();
        resolve({ status: res.statusCode!, headers: res.headers, body: text ? JSON.parse(text) : {} });
      });
    });
    req.on('error', (error) => {
      if (answered) return; // the server closed the connection after answering
      clearTimeout(timer);
      reject(error);
    });
    const chunk = Buffer.alloc(64 * 1024, 'a');
    let written = 0;
    const write = () => {
      while (written < sent && !answered) {
        written += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', write);
      }
    };
    write();
  });
}

function assertRefused(answer: Answer, status: number, limit?: number) {
  assert.equal(answer.status, status, JSON.stringify(answer.body));
  assert.equal(answer.body.error, 'invalid_request');
  if (limit) assert.equal(answer.body.error_description, `the request body is larger than ${limit} bytes`);
}

const form = { 'content-type': 'application/x-www-form-urlencoded' };
// The interaction forms, with the Origin a browser sends: a post without one is refused before its body is looked at.
const interactionForm = { ...form, origin: new URL(baseUrl).origin };

for (const step of ['login', 'confirm', 'abort']) {
  test(`/interaction/{uid}/${step}: 413 for a declared or a chunked body over ${BODY_LIMITS.interactionForm} bytes`, async () => {
    assertRefused(await postPart(`/interaction/some-uid/${step}`, interactionForm, DECLARED), 413, BODY_LIMITS.interactionForm);
    assertRefused(await postPart(`/interaction/some-uid/${step}`, interactionForm, undefined), 413, BODY_LIMITS.interactionForm);
  });
}

test('the sign-in form takes a body of exactly the limit, refuses one byte more, and the sign-in still works', async () => {
  const user = await makeUser();
  const client = await makeClient();
  const { challenge } = await pkce();
  const browser = new TestBrowser(baseUrl);
  const params = authorizeQuery(client, challenge);
  const page = await browser.navigate(`/oauth/authorize?${params}`);
  const login = new URL(/action="([^"]*\/login)"/.exec(await page.response.text())![1], baseUrl).pathname;
  const padded = (size: number) => {
    const body = `username=nobody&password=`;
    return body + 'x'.repeat(size - body.length);
  };
  const post = (body: string) => browser.request(login, { method: 'POST', headers: { ...form, origin: new URL(baseUrl).origin }, body });

  const over = await post(padded(BODY_LIMITS.interactionForm + 1));
  assert.equal(over.status, 413);
  const at = await post(padded(BODY_LIMITS.interactionForm));
  assert.equal(at.status, 303, 'a body of exactly the limit is read');
  assert.match(at.headers.get('location')!, /error=invalid_form/);
  const signedIn = await post(new URLSearchParams(credentials(user)).toString());
  assert.equal(signedIn.status, 303);
  assert.match(signedIn.headers.get('location')!, /\/oauth\/authorize\//, 'the refused posts left the interaction usable');
});

test(`a server action: 413 for a declared body over ${BODY_LIMITS.portalForm} bytes, 411 for a chunked one`, async () => {
  const headers = { 'next-action': serverActionId('signOutAction', 'app/admin'), 'content-type': 'text/plain;charset=UTF-8', origin: new URL(baseUrl).origin };
  assertRefused(await postPart('/admin/users', headers, DECLARED), 413, BODY_LIMITS.portalForm);
  assertRefused(await postPart('/admin/users', headers, undefined), 411);
});

test(`next-auth's /api/auth: 413 for a declared body over ${BODY_LIMITS.nextAuth} bytes, 411 for a chunked one`, async () => {
  assertRefused(await postPart('/api/auth/signout', form, DECLARED), 413, BODY_LIMITS.nextAuth);
  assertRefused(await postPart('/api/auth/callback/gatehouse', form, undefined), 411);
});

test(`/api/admin: 413 for a declared body over ${BODY_LIMITS.adminApi} bytes before authorization, 411 for a chunked one`, async () => {
  const json = { 'content-type': 'application/json' };
  assertRefused(await postPart('/api/admin/users', json, DECLARED), 413, BODY_LIMITS.adminApi);
  assertRefused(await postPart('/api/admin/users', json, undefined), 411);
});

for (const path of ['/oauth/introspect', '/oauth/revoke', '/oauth/authorize']) {
  test(`${path}: 413 for a declared or a chunked body over oidc-provider's ${BODY_LIMITS.provider} bytes`, async () => {
    assertRefused(await postPart(path, form, DECLARED), 413, BODY_LIMITS.provider);
    assertRefused(await postPart(path, form, undefined), 413, BODY_LIMITS.provider);
  });
}

test(`/oauth/token: 413 for a declared or a chunked body over ${BODY_LIMITS.provider} bytes; a body of exactly that is read`, async () => {
  assertRefused(await postPart('/oauth/token', form, DECLARED), 413, BODY_LIMITS.provider);
  assertRefused(await postPart('/oauth/token', form, undefined), 413, BODY_LIMITS.provider);
  const client = await makeClient();
  const body = new URLSearchParams({ grant_type: 'client_credentials', pad: '' }).toString();
  const response = await fetch(new URL('/oauth/token', baseUrl), {
    method: 'POST',
    headers: { ...form, authorization: basic(client.id, client.clientSecret!) },
    body: body + 'x'.repeat(BODY_LIMITS.provider - body.length),
  });
  assert.equal((await response.json()).error, 'unauthorized_client', 'the provider read the request and judged it');
});

test('Bearer introspection, answered by Gatehouse itself: 413 for a declared body, before the token is looked up', async () => {
  const headers = { ...form, authorization: 'Bearer not-a-token' };
  assertRefused(await postPart('/oauth/introspect', headers, DECLARED), 413, BODY_LIMITS.provider);
});
