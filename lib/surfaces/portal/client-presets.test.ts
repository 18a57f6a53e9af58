// The application-type presets: each kind's defaults pass the registration schema, and a form for a kind registers only what that kind can use.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newClientSchema } from '../../clients/manage.ts';
import { clientFormValues, readClientForm } from './client-fields.ts';
import { CLIENT_LAYOUTS, type CLIENT_PRESETS, kindOf, presetValues } from './client-presets.ts';

function form(entries: Array<[string, string]>): FormData {
  const data = new FormData();
  for (const [name, value] of entries) data.append(name, value);
  return data;
}

/** What a form for `kind` posts when the person only types a name (and a redirect URI where the kind has them). */
function submitted(kind: (typeof CLIENT_PRESETS)[number], extra: Array<[string, string]> = []) {
  const v = presetValues(kind, clientFormValues());
  const entries: Array<[string, string]> = [
    ['kind', kind],
    ['name', `A ${kind} app`],
    ...v.grantTypes.map((g): [string, string] => ['grantTypes', g]),
    ...v.scopes.map((s): [string, string] => ['scopes', s]),
    ...(v.resourceServer ? [['resourceServer', 'on'] as [string, string]] : []),
    ...extra,
  ];
  return newClientSchema.parse(readClientForm(form(entries)).input);
}

test('a web app: confidential, code and refresh, a secret at the token endpoint', () => {
  const c = submitted('web', [['redirectUris', 'https://web.example/cb']]);
  assert.equal(c.type, 'confidential');
  assert.deepEqual(c.grantTypes, ['authorization_code', 'refresh_token']);
  assert.deepEqual(c.scopes, ['openid', 'profile', 'email', 'offline_access']);
  assert.equal(c.resourceServer, false);
});

test('a single-page app: public (no secret, PKCE), the code grant only, whatever type the form claims', () => {
  const c = submitted('spa', [
    ['redirectUris', 'https://spa.example/cb'],
    ['type', 'confidential'],
  ]);
  assert.equal(c.type, 'public');
  assert.deepEqual(c.grantTypes, ['authorization_code']);
  assert.equal(c.tokenEndpointAuthMethod, undefined, 'public: the schema makes it none');
  assert.ok(!CLIENT_LAYOUTS.spa.grantTypes.includes('client_credentials'));
});

test('a native app: public, takes a custom-scheme or loopback redirect URI', () => {
  const c = submitted('native', [['redirectUris', 'com.example.notes:/callback\nhttp://127.0.0.1/callback']]);
  assert.equal(c.type, 'public');
  assert.deepEqual(c.redirectUris, ['com.example.notes:/callback', 'http://127.0.0.1/callback']);
  assert.ok(CLIENT_LAYOUTS.native.nativeRedirects);
});

test('machine to machine: client_credentials only, and a redirect URI sent anyway is not registered', () => {
  const c = submitted('machine', [
    ['redirectUris', 'https://crafted.example/cb'],
    ['grantTypes', 'authorization_code'],
    ['firstParty', 'on'],
  ]);
  assert.equal(c.type, 'confidential');
  assert.deepEqual(c.grantTypes, ['client_credentials']);
  assert.deepEqual(c.redirectUris, []);
  assert.equal(c.firstParty, false);
});

test('an API: a confidential resource server with the introspect scope and client_credentials', () => {
  const c = submitted('api');
  assert.equal(c.type, 'confidential');
  assert.equal(c.resourceServer, true);
  assert.deepEqual(c.scopes, ['introspect']);
  assert.deepEqual(c.grantTypes, ['client_credentials']);
});

test('an unknown kind is the whole form, with the type as chosen', () => {
  const { kind, values } = readClientForm(
    form([
      ['kind', 'toString'],
      ['type', 'public'],
      ['name', 'x'],
    ]),
  );
  assert.equal(kind, 'custom');
  assert.equal(values.type, 'public');
});

test('a registered client reads back as its kind', () => {
  const base = {
    confidential: true,
    grantTypes: ['authorization_code'],
    redirectUris: ['https://a.example/cb'],
    resourceServer: false,
    applicationType: 'web',
  };
  assert.equal(kindOf(base), 'web');
  assert.equal(kindOf({ ...base, confidential: false }), 'spa');
  assert.equal(kindOf({ ...base, confidential: false, applicationType: 'native' }), 'native');
  assert.equal(kindOf({ ...base, confidential: false, redirectUris: ['http://127.0.0.1:8080/cb'] }), 'native');
  assert.equal(kindOf({ ...base, grantTypes: ['client_credentials'] }), 'machine');
  assert.equal(kindOf({ ...base, grantTypes: ['client_credentials'], resourceServer: true }), 'api');
});
