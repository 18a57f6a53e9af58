// "Connect your app": every library's snippet carries this client's values and never a secret.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CLIENT_PRESETS } from './client-presets.ts';
import { discoveryUrl, quickstartSnippets, SECRET_VARIABLE } from './quickstart.ts';

const values = { issuer: 'https://id.example.com', clientId: 'cl_123', redirectUri: 'https://app.example/cb' };

test('each kind has a snippet per library, filled with the issuer and client id', () => {
  for (const kind of CLIENT_PRESETS) {
    const snippets = quickstartSnippets(kind, values);
    const libraries = snippets.map((s) => s.library);
    assert.ok(libraries.includes('openid-client') && libraries.includes('spring') && libraries.includes('authlib') && libraries.includes('go-oidc'), kind);
    for (const s of snippets) {
      assert.match(s.code, /cl_123/, `${kind} ${s.library}`);
      assert.match(s.code, /https:\/\/id\.example\.com/, `${kind} ${s.library}`);
    }
  }
  assert.ok(
    quickstartSnippets('web', values).some((s) => s.library === 'authjs'),
    'next-auth signs people in',
  );
});

test('apps that sign people in name their redirect URI; only confidential ones read a secret, from the environment', () => {
  for (const kind of ['web', 'spa', 'native'] as const) {
    for (const s of quickstartSnippets(kind, values)) {
      assert.match(s.code, /https:\/\/app\.example\/cb/, `${kind} ${s.library}`);
      assert.equal(s.code.includes(SECRET_VARIABLE), kind === 'web', `${kind} ${s.library}`);
    }
  }
  for (const s of quickstartSnippets('machine', values)) assert.ok(s.code.includes(SECRET_VARIABLE), s.library);
});

test('a value with quotes stays one string literal', () => {
  const [first] = quickstartSnippets('web', { ...values, clientId: 'a"b' });
  assert.ok(first?.code.includes('"a\\"b"'));
  assert.equal(discoveryUrl('https://id.example.com/'), 'https://id.example.com/.well-known/openid-configuration');
});
