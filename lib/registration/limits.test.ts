// An initial access token's limits on what registers with it (RFC 7591 §3.2.2 error codes).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { limitViolation } from './limits.ts';

const limits = { redirectHosts: ['app.example'], grantTypes: ['authorization_code', 'refresh_token'], scopes: ['openid', 'profile'] };
const ok = { redirect_uris: ['https://app.example/cb'], grant_types: ['authorization_code'], scope: 'openid profile' };

test('within the limits: nothing to say; no grant_types means authorization_code, no scope means none asked', () => {
  assert.equal(limitViolation(ok, limits), undefined);
  assert.equal(limitViolation({ redirect_uris: ['https://APP.example/cb'] }, limits), undefined);
  assert.equal(limitViolation({ ...ok, redirect_uris: ['https://anywhere.example/cb'] }, { ...limits, redirectHosts: [] }), undefined);
});

test('a redirect or post-logout host it does not allow is invalid_redirect_uri', () => {
  assert.equal(limitViolation({ ...ok, redirect_uris: ['https://evil.example/cb'] }, limits)?.error, 'invalid_redirect_uri');
  assert.equal(limitViolation({ ...ok, post_logout_redirect_uris: ['https://app.example.evil/'] }, limits)?.error, 'invalid_redirect_uri');
  assert.equal(limitViolation({ ...ok, redirect_uris: ['not a url'] }, limits)?.error, 'invalid_redirect_uri');
});

test('a grant type or scope it does not allow is invalid_client_metadata, naming it', () => {
  const grant = limitViolation({ ...ok, grant_types: ['client_credentials'] }, limits);
  assert.deepEqual([grant?.error, /client_credentials/.test(grant?.description ?? '')], ['invalid_client_metadata', true]);
  assert.equal(limitViolation({ ...ok, grant_types: undefined }, { ...limits, grantTypes: ['client_credentials'] })?.error, 'invalid_client_metadata');
  const scope = limitViolation({ ...ok, scope: 'openid email' }, limits);
  assert.deepEqual([scope?.error, /email/.test(scope?.description ?? '')], ['invalid_client_metadata', true]);
});
