// The provider's answers corrected on the way out: a server_error names the request id, as the admin API's does.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type Provider from 'oidc-provider';
import { useErrorConventions } from './error-conventions.ts';

type Middleware = (ctx: unknown, next: () => Promise<void>) => Promise<void>;

/** The middleware useErrorConventions adds, run on an answer the provider gave (`status`, `body`). */
async function corrected(status: number, body: unknown, requestHeaders: Record<string, string> = {}, responseHeaders: Record<string, string> = {}) {
  let middleware: Middleware | undefined;
  useErrorConventions({ issuer: 'https://id.example', use: (fn: Middleware) => (middleware = fn) } as unknown as Provider);
  const headers: Record<string, string> = { ...responseHeaders };
  const ctx = {
    status,
    body,
    get: (name: string) => requestHeaders[name.toLowerCase()] ?? '',
    set: (name: string, value: string) => (headers[name.toLowerCase()] = value),
    remove: (name: string) => delete headers[name.toLowerCase()],
    response: { get: (name: string) => headers[name.toLowerCase()] ?? '' },
    // As Koa's: the Location, a body naming it, the status kept when it is a redirect's.
    redirect(url: string) {
      headers.location = url;
      ctx.body = `Redirecting to ${url}.`;
    },
  };
  await middleware?.(ctx, async () => {});
  return { status: ctx.status, body: ctx.body, headers };
}

test("a provider server_error says the request id instead of 'oops! something went wrong', and keeps its state", async () => {
  const answer = await corrected(500, { error: 'server_error', error_description: 'oops! something went wrong', state: 'xyz' }, { 'x-request-id': 'req-42' });
  assert.deepEqual(answer, {
    status: 500,
    body: { error: 'server_error', error_description: 'an unexpected error occurred (request id req-42)', state: 'xyz' },
    headers: {},
  });
});

test('a server_error redirected to the client names the request id; a code redirected is left alone', async () => {
  const location = 'https://app.example/cb?error=server_error&error_description=oops%21+something+went+wrong&state=xyz';
  const answer = await corrected(303, 'Redirecting to …', { 'x-request-id': 'req-7' }, { location });
  assert.equal(answer.status, 303);
  const url = new URL(answer.headers.location);
  assert.equal(url.searchParams.get('error_description'), 'an unexpected error occurred (request id req-7)');
  assert.equal(url.searchParams.get('state'), 'xyz');
  assert.doesNotMatch(String(answer.body), /oops/);
  const code = 'https://app.example/cb?code=abc&state=xyz';
  assert.equal((await corrected(303, 'Redirecting', { 'x-request-id': 'req-8' }, { location: code })).headers.location, code);
});

test('other answers keep their words: a 400, an HTML page, a success', async () => {
  const invalid = { error: 'invalid_grant', error_description: 'grant request is invalid' };
  assert.deepEqual((await corrected(400, invalid, { 'x-request-id': 'req-1' })).body, invalid);
  assert.equal((await corrected(500, '<html>…</html>', { 'x-request-id': 'req-2' })).body, '<html>…</html>');
  assert.deepEqual((await corrected(200, { access_token: 'at' }, { 'x-request-id': 'req-3' })).body, { access_token: 'at' });
});

test('the RFC 6749 §5.2 remaps still apply: no client authentication is invalid_client, 401 with a Basic challenge', async () => {
  const answer = await corrected(400, { error: 'invalid_request', error_description: 'no client authentication mechanism provided' });
  assert.equal(answer.status, 401);
  assert.deepEqual(answer.body, { error: 'invalid_client', error_description: 'client authentication is required' });
  assert.equal(answer.headers['www-authenticate'], 'Basic realm="https://id.example"');
});
