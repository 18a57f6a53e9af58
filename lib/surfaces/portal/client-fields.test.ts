// The portal's client form: FormData to the shared registration schema, and its issues back per field.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newClientSchema } from '../../clients/manage.ts';
import { translator } from '../../i18n/messages.ts';
import { fieldProblemTexts } from '../../i18n/problems.ts';
import { fieldErrors, fieldProblems } from '../../platform/forms.ts';
import { clientRecord } from '../../testing.ts';
import { clientFields, clientFormValues, readClientForm } from './client-fields.ts';

function form(entries: Array<[string, string]>): FormData {
  const data = new FormData();
  for (const [name, value] of entries) data.append(name, value);
  return data;
}

test('lists are one per line; unchecked boxes are false; empty optional fields become their defaults', () => {
  const { input } = readClientForm(
    form([
      ['name', '  Notes  '],
      ['type', 'confidential'],
      ['redirectUris', 'https://notes.example/cb\r\n\r\n  http://localhost:5173/cb  \n'],
      ['postLogoutRedirectUris', ''],
      ['grantTypes', 'authorization_code'],
      ['grantTypes', 'refresh_token'],
      ['scopes', 'openid'],
      ['scopes', 'email'],
      ['tokenEndpointAuthMethod', ''],
      ['logoUri', ''],
      ['firstParty', 'on'],
    ]),
  );
  const parsed = newClientSchema.parse(input);
  assert.equal(parsed.name, 'Notes');
  assert.deepEqual(parsed.redirectUris, ['https://notes.example/cb', 'http://localhost:5173/cb']);
  assert.deepEqual(parsed.postLogoutRedirectUris, []);
  assert.deepEqual(parsed.grantTypes, ['authorization_code', 'refresh_token']);
  assert.deepEqual(parsed.scopes, ['openid', 'email']);
  assert.equal(parsed.tokenEndpointAuthMethod, undefined);
  assert.equal(parsed.logoUri, null);
  assert.equal(parsed.firstParty, true);
  assert.equal(parsed.resourceServer, false);
  assert.equal(parsed.idTokenSignedResponseAlg, 'ES256', 'no algorithm in the form: a new client gets ES256');
});

test('the ID token signing algorithm: RS256 or ES256 as chosen, anything else an error next to its field', () => {
  const base: Array<[string, string]> = [
    ['name', 'Legacy'],
    ['redirectUris', 'https://legacy.example/cb'],
    ['grantTypes', 'authorization_code'],
    ['scopes', 'openid'],
  ];
  assert.equal(newClientSchema.parse(readClientForm(form([...base, ['idTokenSignedResponseAlg', 'RS256']])).input).idTokenSignedResponseAlg, 'RS256');
  assert.equal(newClientSchema.parse(readClientForm(form([...base, ['idTokenSignedResponseAlg', 'ES256']])).input).idTokenSignedResponseAlg, 'ES256');
  const { values, input } = readClientForm(form([...base, ['idTokenSignedResponseAlg', 'HS256']]));
  const result = newClientSchema.safeParse(input);
  assert.ok(!result.success);
  assert.deepEqual(fieldErrors(result.error, clientFields), { idTokenSignedResponseAlg: ['The ID token signing algorithm is one of ES256, RS256'] });
  assert.equal(values.idTokenSignedResponseAlg, 'HS256', 'shown again as submitted');
});

test('on edit the type comes from the client, not from the form', () => {
  const { input } = readClientForm(form([['type', 'public']]), 'confidential');
  assert.equal(input.type, 'confidential');
});

test('each issue lands on its field, and the values come back as typed for the form to show again', () => {
  const typed = form([
    ['name', ''],
    ['type', 'public'],
    ['redirectUris', 'https://ok.example/cb\nhttp://evil.example/cb\nhttps://frag.example/cb#x'],
    ['scopes', 'superuser'],
    ['tokenEndpointAuthMethod', 'client_secret_basic'],
    ['logoUri', 'http://logo.example/x.png'],
  ]);
  const { values, input } = readClientForm(typed);
  const result = newClientSchema.safeParse(input);
  assert.ok(!result.success);
  const errors = fieldErrors(result.error, clientFields);
  // Cross-field rules (public client + secret method) run once every field is valid on its own.
  assert.deepEqual(Object.keys(errors).sort(), ['grantTypes', 'logoUri', 'name', 'redirectUris', 'scopes']);
  assert.equal(errors.redirectUris?.length, 2, 'one message per bad URI');
  assert.match(errors.redirectUris!.join(' '), /http:\/\/evil\.example\/cb must use https/);
  assert.match(errors.grantTypes!.join(' '), /at least one grant type/);
  assert.deepEqual(errors.logoUri, ['The logo URI must be an https URL']);
  assert.equal(values.redirectUris, 'https://ok.example/cb\nhttp://evil.example/cb\nhttps://frag.example/cb#x');
  assert.equal(values.type, 'public');
});

test('a cross-field rule lands on the field it is about', () => {
  const { input } = readClientForm(
    form([
      ['name', 'Web'],
      ['type', 'confidential'],
      ['redirectUris', 'https://app.example/cb'],
      ['grantTypes', 'authorization_code'],
      ['scopes', 'openid'],
      ['tokenEndpointAuthMethod', 'none'],
    ]),
  );
  const result = newClientSchema.safeParse(input);
  assert.ok(!result.success);
  assert.deepEqual(fieldErrors(result.error, clientFields), {
    tokenEndpointAuthMethod: ['A confidential client needs client_secret_basic or client_secret_post'],
  });
});

test('a public client’s form drops what only a confidential client is offered (left ticked, hidden, after switching type)', () => {
  const { values, input } = readClientForm(
    form([
      ['name', 'SPA'],
      ['type', 'public'],
      ['redirectUris', 'http://localhost:5173/cb'],
      ['grantTypes', 'authorization_code'],
      ['grantTypes', 'client_credentials'],
      ['scopes', 'openid'],
      ['scopes', 'introspect'],
      ['scopes', 'admin'],
      ['tokenEndpointAuthMethod', 'client_secret_basic'],
      ['resourceServer', 'on'],
      ['adminApi', 'on'],
    ]),
  );
  assert.deepEqual(values.grantTypes, ['authorization_code']);
  assert.deepEqual(values.scopes, ['openid']);
  assert.equal(values.tokenEndpointAuthMethod, '');
  assert.equal(values.resourceServer, false);
  assert.equal(values.adminApi, false);
  assert.ok(newClientSchema.safeParse(input).success, 'what is left is a valid public client');
});

test('a new client starts as a confidential code-flow client; an existing one shows what it has', () => {
  const fresh = clientFormValues();
  assert.equal(fresh.type, 'confidential');
  assert.deepEqual(fresh.grantTypes, ['authorization_code', 'refresh_token']);
  assert.equal(fresh.idTokenSignedResponseAlg, 'ES256');
  const values = clientFormValues(clientRecord({ name: 'API' }));
  assert.deepEqual(values.scopes, ['introspect']);
  assert.equal(values.tokenEndpointAuthMethod, 'client_secret_post');
  assert.equal(values.logoUri, '');
  assert.equal(values.resourceServer, true);
  assert.equal(values.idTokenSignedResponseAlg, 'RS256', 'an existing RS256 client is edited as RS256');
});

test('the introspect scope beside the code grant, without the resource server flag, is refused next to the fields it is about', () => {
  const { input } = readClientForm(
    form([
      ['name', 'Orders'],
      ['type', 'confidential'],
      ['redirectUris', 'https://app.example/cb'],
      ['grantTypes', 'authorization_code'],
      ['scopes', 'openid'],
      ['scopes', 'introspect'],
    ]),
  );
  const result = newClientSchema.safeParse(input);
  assert.ok(!result.success);
  assert.deepEqual(fieldErrors(result.error, clientFields), {
    grantTypes: ['A client with the introspect scope uses the client_credentials grant only'],
    scopes: ['Only resource servers may have the introspect scope'],
  });
});

test('the portal’s form gets the same issues as codes, worded in the page’s language (the API and the CLI keep the English messages)', () => {
  const { input } = readClientForm(
    form([
      ['name', ''],
      ['type', 'public'],
      ['redirectUris', 'http://evil.example/cb'],
      ['grantTypes', 'authorization_code'],
      ['scopes', 'openid'],
      ['logoUri', 'http://logo.example/x.png'],
    ]),
  );
  const result = newClientSchema.safeParse(input);
  assert.ok(!result.success);
  const problems = fieldProblems(result.error, clientFields);
  assert.deepEqual(problems.redirectUris, [{ code: 'uri_not_https', values: { uri: 'http://evil.example/cb' } }]);
  assert.deepEqual(fieldProblemTexts(translator('en', 'problems'), problems), {
    name: ['Name is required.'],
    redirectUris: ['http://evil.example/cb must use https (http only for localhost, 127.0.0.1 and [::1]).'],
    logoUri: ['The logo URI must be an https URL.'],
  });
  const de = fieldProblemTexts(translator('de', 'problems'), problems);
  assert.deepEqual(de.name, ['Ein Name ist erforderlich.']);
  assert.deepEqual(de.redirectUris, ['http://evil.example/cb muss https verwenden (http nur für localhost, 127.0.0.1 und [::1]).']);

  // A cross-field rule, once every field is valid on its own, by its code.
  const crossed = newClientSchema.safeParse(
    readClientForm(
      form([
        ['name', 'Web'],
        ['type', 'confidential'],
        ['redirectUris', 'https://app.example/cb'],
        ['grantTypes', 'refresh_token'],
        ['scopes', 'openid'],
      ]),
    ).input,
  );
  assert.ok(!crossed.success);
  assert.deepEqual(fieldProblemTexts(translator('de', 'problems'), fieldProblems(crossed.error, clientFields)), {
    grantTypes: ['Der Grant refresh_token ergibt nur mit authorization_code Sinn.'],
  });
});
