// The portal's connection form: FormData to the one connection schema (lib/federation/manage.ts), the write-only
// secret, the kind's own fields only, and the presets as filled-in forms.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newConnectionSchema } from '../../federation/manage.ts';
import { presetFields } from '../../federation/presets.ts';
import { connectionFormValues, presetFormValues, readConnectionForm } from './connection-fields.ts';

function form(entries: Array<[string, string]>): FormData {
  const data = new FormData();
  for (const [name, value] of entries) data.append(name, value);
  return data;
}

const oidc: Array<[string, string]> = [
  ['kind', 'oidc'],
  ['slug', 'corp'],
  ['displayName', 'Corp'],
  ['issuer', 'https://login.corp.example'],
  ['authorizationEndpoint', 'https://left.over.example/authorize'],
  ['clientId', 'gatehouse'],
  ['scopes', 'openid  profile\temail'],
  ['claimMapping', 'username=upn\nemail = mail'],
  ['clientIds', 'app-one\n app-two \n'],
  ['emailDomains', 'Corp.Example, corp.test'],
  ['jitCreate', 'on'],
  ['jitState', 'disabled'],
];

test('lists one per line (or comma), the scopes space-separated, claims as field=claim, only the kind’s endpoints', () => {
  const { input } = readConnectionForm(form([...oidc, ['clientSecret', 'shh']]), 'create');
  const parsed = newConnectionSchema.parse(input);
  assert.equal(parsed.scopes, 'openid profile email');
  assert.deepEqual(parsed.claimMapping, { username: 'upn', email: 'mail' });
  assert.deepEqual(parsed.clientIds, ['app-one', 'app-two']);
  assert.deepEqual(parsed.emailDomains, ['corp.example', 'corp.test']);
  assert.equal(parsed.authorizationEndpoint, null, 'an OAuth 2.0 endpoint left in the page is not stored for an OIDC connection');
  assert.equal(parsed.pkce, false, 'an unticked box is false');
  assert.equal(parsed.jitCreate, true);
  assert.equal(parsed.jitState, 'disabled');
  assert.equal(parsed.clientSecret, 'shh');
});

test('the client secret is write-only: never among the values the form shows, and an empty box on edit keeps the stored one', () => {
  const created = readConnectionForm(form([...oidc, ['clientSecret', 'shh']]), 'create');
  assert.ok(!JSON.stringify(created.values).includes('shh'), 'the answer to the form never carries the secret back');
  const edited = readConnectionForm(form([...oidc, ['clientSecret', '']]), 'edit');
  assert.ok(!('clientSecret' in edited.input), 'left out: the stored secret stays');
  const replaced = readConnectionForm(form([...oidc, ['clientSecret', 'new']]), 'edit');
  assert.equal(replaced.input.clientSecret, 'new');
});

test('a claim line without "=" and a non-domain reach the schema, which refuses them', () => {
  const { input } = readConnectionForm(
    form([...oidc.filter(([name]) => name !== 'claimMapping' && name !== 'emailDomains'), ['claimMapping', 'username'], ['emailDomains', 'not a domain']]),
    'create',
  );
  const result = newConnectionSchema.safeParse(input);
  assert.equal(result.success, false);
  const paths = result.error!.issues.map((issue) => String(issue.path[0]));
  assert.ok(paths.includes('claimMapping') && paths.includes('emailDomains'), paths.join());
});

test('a preset is the federation preset filled into the form; Microsoft needs a well-formed tenant first', () => {
  const github = presetFormValues('github');
  assert.deepEqual(github, connectionFormValues(presetFields('github')));
  assert.equal(github.kind, 'oauth2');
  assert.equal(presetFormValues('microsoft'), 'needs_tenant');
  assert.equal(presetFormValues('microsoft', 'a/../b'), 'needs_tenant');
  const entra = presetFormValues('microsoft', 'contoso.onmicrosoft.com');
  assert.equal(entra !== 'needs_tenant' && entra.issuer, 'https://login.microsoftonline.com/contoso.onmicrosoft.com/v2.0');
  assert.deepEqual(presetFormValues('custom'), { ...connectionFormValues(), icon: 'generic.svg' }, 'another provider: the generic icon');
  assert.equal(github.icon, 'github.svg', "each preset's local icon");
});

test('the icon and the upstream logout come from the form; an empty icon is the initial', () => {
  const form = new FormData();
  for (const [name, value] of Object.entries({
    slug: 'corp',
    displayName: 'Corp',
    issuer: 'https://idp.example',
    clientId: 'g',
    icon: 'gitlab.svg',
    upstreamLogout: 'on',
  }))
    form.set(name, value);
  const { input } = readConnectionForm(form, 'create');
  assert.equal(input.icon, 'gitlab.svg');
  assert.equal(input.upstreamLogout, true);
  form.set('icon', '');
  form.delete('upstreamLogout');
  const again = readConnectionForm(form, 'create').input;
  assert.deepEqual([again.icon, again.upstreamLogout], [null, false]);
});
