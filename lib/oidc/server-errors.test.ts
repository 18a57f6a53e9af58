// A server_error names the request id wherever the provider sends it: JSON, the redirect to the client, a form_post page.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { memoryLog } from '../ops/log.ts';
import { serverErrorFormPost, serverErrorRedirect, serverErrorResponse } from './server-errors.ts';

const id = '3f2b8c1e-0d6a-4c5e-9b7a-2a1d4e6f8c90';
const said = `an unexpected error occurred (request id ${id})`;

test('a server_error in the query of the redirect: the request id, state and iss kept', () => {
  const location = 'https://app.example/cb?error=server_error&error_description=oops%21+something+went+wrong&state=s+1&iss=https%3A%2F%2Fid.example';
  const url = new URL(serverErrorRedirect(location, id)!);
  assert.deepEqual(Object.fromEntries(url.searchParams), { error: 'server_error', error_description: said, state: 's 1', iss: 'https://id.example' });
  assert.equal(url.origin + url.pathname, 'https://app.example/cb');
});

test('a server_error in the fragment, and to a native app’s own scheme', () => {
  const location = 'com.example.app:/cb#error=server_error&error_description=oops%21%20something%20went%20wrong&state=xyz';
  const url = new URL(serverErrorRedirect(location, id)!);
  assert.equal(url.protocol, 'com.example.app:');
  assert.deepEqual(Object.fromEntries(new URLSearchParams(url.hash.slice(1))), { error: 'server_error', error_description: said, state: 'xyz' });
});

test('any other redirect is left alone: a code, another error, an address that does not parse', () => {
  assert.equal(serverErrorRedirect('https://app.example/cb?code=abc&state=xyz', id), undefined);
  assert.equal(serverErrorRedirect('https://app.example/cb?error=access_denied&error_description=server_error+mentioned', id), undefined);
  assert.equal(serverErrorRedirect('/relative?error=server_error', id), undefined);
});

test("the provider's form_post page of a server_error gets the request id; other pages are left alone", () => {
  const page = (error: string) => `<form method="post" action="https://app.example/cb">
    <input type="hidden" name="error" value="${error}"/>
<input type="hidden" name="error_description" value="oops! something went wrong"/>
<input type="hidden" name="state" value="xyz"/></form>`;
  const fixed = serverErrorFormPost(page('server_error'), id)!;
  assert.match(fixed, new RegExp(`<input type="hidden" name="error_description" value="${said.replace(/[()]/g, '\\$&')}"/>`));
  assert.match(fixed, /name="state" value="xyz"/);
  assert.doesNotMatch(fixed, /oops/);
  assert.equal(serverErrorFormPost(page('access_denied'), id), undefined);
  assert.equal(serverErrorFormPost('<html>a page</html>', id), undefined);
});

test('our own server_error answer: JSON with the request id, in X-Request-Id too, and the error logged with it', async () => {
  const { log, lines } = memoryLog();
  const response = serverErrorResponse(log, id, new Error('the database is gone'));
  assert.equal(response.status, 500);
  assert.equal(response.headers.get('x-request-id'), id);
  assert.deepEqual(await response.json(), { error: 'server_error', error_description: said });
  assert.equal(lines[0].request_id, id);
  assert.equal((lines[0].err as { message: string }).message, 'the database is gone');
});
