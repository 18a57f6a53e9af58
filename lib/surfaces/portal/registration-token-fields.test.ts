// The registration page's form read back into the token's input: hosts one a line or comma-separated, only the
// offered grant types and scopes, empty numbers left to the schema's defaults.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { initialAccessTokenSchema } from '../../registration/tokens.ts';
import { readRegistrationTokenForm } from './registration-token-fields.ts';

function form(entries: [string, string][]): FormData {
  const data = new FormData();
  for (const [name, value] of entries) data.append(name, value);
  return data;
}

test('the limits as typed become the use case input', () => {
  const { input, values } = readRegistrationTokenForm(
    form([
      ['name', 'Agent fleet'],
      ['maxClients', ' 5 '],
      ['expiresInDays', '30'],
      ['redirectHosts', 'app.example.com\n  agents.example.com, other.example.com'],
      ['grantTypes', 'authorization_code'],
      ['grantTypes', 'urn:ietf:params:oauth:grant-type:jwt-bearer'],
      ['scopes', 'openid'],
      ['scopes', 'admin'],
      ['requireApproval', 'on'],
    ]),
  );
  assert.deepEqual(input, {
    name: 'Agent fleet',
    maxClients: '5',
    expiresInDays: '30',
    redirectHosts: ['app.example.com', 'agents.example.com', 'other.example.com'],
    grantTypes: ['authorization_code'],
    scopes: ['openid'],
    requireApproval: true,
  });
  assert.equal(values.redirectHosts, 'app.example.com\n  agents.example.com, other.example.com', 'shown again as typed');
  const parsed = initialAccessTokenSchema.parse(input);
  assert.equal(parsed.maxClients, 5);
});

test('nothing ticked is refused by the schema, not filled in with defaults', () => {
  const { input } = readRegistrationTokenForm(form([['name', 'x']]));
  assert.deepEqual(input.grantTypes, []);
  const result = initialAccessTokenSchema.safeParse(input);
  assert.ok(!result.success);
  assert.deepEqual(new Set(result.error.issues.map((issue) => issue.path[0])), new Set(['grantTypes', 'scopes']));
  assert.equal(
    initialAccessTokenSchema.parse({ ...input, grantTypes: ['authorization_code'], scopes: ['openid'] }).expiresInDays,
    7,
    'empty days: the default',
  );
});
