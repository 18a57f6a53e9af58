// Client registration rules (RFC 9700 §2.1, RFC 7591 §2): what a registration may and may not say.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newClientSchema, redirectUriSchema } from './clients.ts';

test('redirect URIs: https anywhere, http only on loopback, private-use schemes for native apps', () => {
  for (const ok of ['https://app.example.com/cb', 'http://localhost:8080/cb', 'http://127.0.0.1/cb', 'http://[::1]:3000/cb', 'com.example.app:/oauth2redirect']) {
    assert.ok(redirectUriSchema.safeParse(ok).success, ok);
  }
  for (const bad of ['http://example.com/cb', 'https://app.example.com/cb#frag', 'https://user:pw@app.example.com/cb', 'not a url', 'javascript:alert(1)', 'http://localhost.evil.com/cb']) {
    assert.ok(!redirectUriSchema.safeParse(bad).success, bad);
  }
});

test('a public client authenticates with none and cannot use client_credentials', () => {
  const base = { name: 'SPA', type: 'public' as const, redirectUris: ['http://localhost:5173/cb'] };
  assert.ok(newClientSchema.safeParse(base).success);
  assert.ok(!newClientSchema.safeParse({ ...base, tokenEndpointAuthMethod: 'client_secret_basic' }).success);
  assert.ok(!newClientSchema.safeParse({ ...base, grantTypes: ['authorization_code', 'client_credentials'] }).success);
});

test('a confidential client needs a secret-based auth method', () => {
  const base = { name: 'Web', redirectUris: ['https://app.example.com/cb'] };
  assert.equal(newClientSchema.parse(base).type, 'confidential');
  assert.ok(!newClientSchema.safeParse({ ...base, tokenEndpointAuthMethod: 'none' }).success);
});

test('the code grant needs a redirect URI; refresh_token needs the code grant', () => {
  assert.ok(!newClientSchema.safeParse({ name: 'x', grantTypes: ['authorization_code'] }).success);
  assert.ok(!newClientSchema.safeParse({ name: 'x', grantTypes: ['refresh_token', 'client_credentials'] }).success);
  assert.ok(newClientSchema.safeParse({ name: 'x', grantTypes: ['client_credentials'], scopes: ['openid'] }).success);
});

test('only resource servers may have the introspect scope', () => {
  const api = { name: 'API', grantTypes: ['client_credentials' as const], scopes: ['introspect' as const] };
  assert.ok(!newClientSchema.safeParse(api).success);
  assert.ok(newClientSchema.safeParse({ ...api, resourceServer: true }).success);
});

test('unknown scopes and grant types are refused', () => {
  const base = { name: 'x', redirectUris: ['https://a.example/cb'] };
  assert.ok(!newClientSchema.safeParse({ ...base, scopes: ['admin'] }).success);
  assert.ok(!newClientSchema.safeParse({ ...base, grantTypes: ['password'] }).success);
  assert.ok(!newClientSchema.safeParse({ ...base, logoUri: 'http://a.example/logo.png' }).success, 'logo over https only');
});
