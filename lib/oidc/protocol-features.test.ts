import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ClientMetadata } from '../clients/repository.ts';
import { clientMetadataWithin, NO_PROTOCOL_FEATURES, pairwiseSubject } from './protocol-features.ts';

const DEVICE = 'urn:ietf:params:oauth:grant-type:device_code';
const metadata = (extra: Partial<ClientMetadata> = {}): ClientMetadata => ({
  client_id: 'c1',
  client_name: 'TV',
  redirect_uris: ['https://app.example/cb'],
  post_logout_redirect_uris: [],
  grant_types: ['authorization_code', DEVICE],
  response_types: ['code'],
  scope: 'openid',
  token_endpoint_auth_method: 'none',
  application_type: 'web',
  first_party: false,
  resource_server: false,
  admin_api: false,
  id_token_signed_response_alg: 'ES256',
  require_second_factor: false,
  ...extra,
});

test('a client without the features is handed over as the same object (the provider keeps its Client by it)', () => {
  const plain = metadata({ grant_types: ['authorization_code'] });
  assert.equal(clientMetadataWithin(NO_PROTOCOL_FEATURES)(plain), plain);
});

test('settings of features the instance has off are left out, once per metadata object', () => {
  const within = clientMetadataWithin(NO_PROTOCOL_FEATURES);
  const full = metadata({
    require_pushed_authorization_requests: true,
    request_object_signing_alg: 'ES256',
    require_signed_request_object: true,
    dpop_bound_access_tokens: true,
    subject_type: 'pairwise',
    sector_identifier_uri: 'https://app.example/s.json',
  });
  const cut = within(full);
  assert.deepEqual(cut?.grant_types, ['authorization_code']);
  for (const key of [
    'require_pushed_authorization_requests',
    'request_object_signing_alg',
    'dpop_bound_access_tokens',
    'subject_type',
    'sector_identifier_uri',
  ]) {
    assert.ok(!(key in (cut ?? {})), key);
  }
  assert.equal(within(full), cut, 'the same copy for the same object');
  const allOn = { deviceFlow: true, pushedAuthorizationRequests: true, requestObjects: true, dPoP: true, pairwiseSubjects: true, claimsParameter: true };
  assert.equal(clientMetadataWithin(allOn)(full), full);
});

test('pairwise subjects differ by sector and by account, and are stable', () => {
  const a = pairwiseSubject('salt', 'app.example', 'u1');
  assert.equal(pairwiseSubject('salt', 'app.example', 'u1'), a);
  assert.notEqual(pairwiseSubject('salt', 'other.example', 'u1'), a);
  assert.notEqual(pairwiseSubject('salt', 'app.example', 'u2'), a);
  assert.notEqual(pairwiseSubject('other salt', 'app.example', 'u1'), a);
  assert.match(a, /^[\w-]{43}$/);
});
