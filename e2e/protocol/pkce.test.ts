// runs-on: stores
// PKCE (RFC 7636) with S256 is required of every client; plain and a missing challenge are refused.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as oidc from 'openid-client';
import { baseUrl, codeFlow, makeClient, post, redirectUri } from '../support/fixtures.ts';

async function authorizationError(params: Record<string, string>) {
  const client = await makeClient();
  const url = new URL('/oauth/authorize', baseUrl);
  url.search = new URLSearchParams({
    client_id: client.id,
    response_type: 'code',
    redirect_uri: redirectUri,
    scope: 'openid',
    state: 's1',
    ...params,
  }).toString();
  const response = await fetch(url, { redirect: 'manual' });
  assert.equal(response.status, 303);
  // The client and redirect_uri are valid, so the error goes back to the client (RFC 6749 §4.1.2.1).
  const location = new URL(response.headers.get('location')!);
  assert.equal(location.origin + location.pathname, redirectUri);
  return location.searchParams;
}

test('a missing code_challenge is refused with invalid_request, for confidential clients too', async () => {
  const params = await authorizationError({});
  assert.equal(params.get('error'), 'invalid_request');
  assert.equal(params.get('state'), 's1');
});

test('code_challenge_method=plain is refused with invalid_request', async () => {
  const params = await authorizationError({ code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' });
  assert.equal(params.get('error'), 'invalid_request');
});

test('a code_challenge without a method is refused (the default method would be plain)', async () => {
  const params = await authorizationError({ code_challenge: 'a'.repeat(43) });
  assert.equal(params.get('error'), 'invalid_request');
});

test('a wrong code_verifier at the token endpoint is invalid_grant', async () => {
  const client = await makeClient({ type: 'public', grantTypes: ['authorization_code'] });
  const { callback } = await codeFlow(client);
  const response = await post('/oauth/token', {
    grant_type: 'authorization_code',
    code: callback.searchParams.get('code')!,
    redirect_uri: redirectUri,
    client_id: client.id,
    code_verifier: oidc.randomPKCECodeVerifier(),
  });
  assert.equal(response.status, 400);
  assert.equal((await response.json()).error, 'invalid_grant');
});
