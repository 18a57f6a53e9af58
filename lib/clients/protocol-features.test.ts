import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InvalidRequest } from '../platform/errors.ts';
import { checkSectorIdentifier, publicJwksSchema, sectorIdentifierUriSchema } from './protocol-features.ts';

const publicKey = { kty: 'EC', crv: 'P-256', x: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU', y: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0' };

test('a JWKS of public keys is accepted; private or symmetric members, non-JSON and an empty list are refused', () => {
  assert.ok(publicJwksSchema.safeParse(JSON.stringify({ keys: [publicKey] })).success);
  for (const bad of [
    'not json',
    '{}',
    '{"keys":[]}',
    JSON.stringify({ keys: [{ ...publicKey, d: 'secret' }] }),
    JSON.stringify({ keys: [{ kty: 'oct', k: 'c2VjcmV0' }] }),
  ]) {
    assert.equal(publicJwksSchema.safeParse(bad).success, false, bad);
  }
});

test('a sector identifier URI is https (http only on loopback), without a fragment', () => {
  assert.ok(sectorIdentifierUriSchema.safeParse('https://apps.example/sector.json').success);
  assert.ok(sectorIdentifierUriSchema.safeParse('http://127.0.0.1:8080/sector.json').success);
  assert.equal(sectorIdentifierUriSchema.safeParse('http://apps.example/sector.json').success, false);
  assert.equal(sectorIdentifierUriSchema.safeParse('https://apps.example/sector.json#x').success, false);
});

const answering = (status: number, body: string) => (async () => new Response(body, { status })) as unknown as typeof fetch;
const pairwise = (redirectUris: string[]) => ({ subjectType: 'pairwise', sectorIdentifierUri: 'https://apps.example/sector.json', redirectUris });

test('OIDC Core §8.1: the sector identifier URI must list every redirect URI', async () => {
  await checkSectorIdentifier(
    pairwise(['https://a.example/cb', 'https://b.example/cb']),
    answering(200, '["https://a.example/cb","https://b.example/cb","https://c.example/cb"]'),
  );
  await assert.rejects(
    checkSectorIdentifier(pairwise(['https://a.example/cb', 'https://d.example/cb']), answering(200, '["https://a.example/cb"]')),
    (error: unknown) => {
      assert.ok(error instanceof InvalidRequest);
      assert.match(error.message, /does not list https:\/\/d\.example\/cb/);
      return true;
    },
  );
  await assert.rejects(checkSectorIdentifier(pairwise(['https://a.example/cb']), answering(404, '')), /answered 404/);
  await assert.rejects(checkSectorIdentifier(pairwise(['https://a.example/cb']), answering(200, '{"a":1}')), /JSON array/);
  await assert.rejects(checkSectorIdentifier(pairwise(['https://a.example/cb']), answering(200, 'nope')), /could not be read/);
});

test('nothing is fetched for a public client or without a sector identifier URI', async () => {
  const never = (async () => assert.fail('fetched')) as unknown as typeof fetch;
  await checkSectorIdentifier({ subjectType: 'public', sectorIdentifierUri: 'https://apps.example/s.json', redirectUris: [] }, never);
  await checkSectorIdentifier({ subjectType: 'pairwise', sectorIdentifierUri: null, redirectUris: [] }, never);
});
