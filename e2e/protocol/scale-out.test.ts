// Two instances on one database behave as one: the same keys, and each accepts what the other issued.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { basic, baseUrl, codeFlow, databaseUrl, makeClient, post, redirectUri } from '../support/fixtures.ts';
import { startInstance } from '../support/server.ts';

let second: string;
let stop: () => void;

before(async () => {
  // Same ISSUER as the first instance: behind a load balancer both answer for one origin.
  ({ url: second, stop } = await startInstance({ DATABASE_URL: databaseUrl, ISSUER: baseUrl }));
});

after(() => stop?.());

test('both instances publish the same JWKS and the same discovery document', async () => {
  assert.deepEqual(await (await fetch(`${second}/oauth/jwks`)).json(), await (await fetch(`${baseUrl}/oauth/jwks`)).json());
  assert.deepEqual(
    await (await fetch(`${second}/.well-known/openid-configuration`)).json(),
    await (await fetch(`${baseUrl}/.well-known/openid-configuration`)).json(),
  );
});

test('a code from one instance redeems at the other, and its tokens work on both', async () => {
  const client = await makeClient();
  const { user, verifier, code } = await codeFlow(client);
  const auth = { authorization: basic(client.id, client.clientSecret!) };
  const tokenResponse = await fetch(`${second}/oauth/token`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier }),
  });
  assert.equal(tokenResponse.status, 200);
  const tokens = await tokenResponse.json();
  const introspected = await (await post('/oauth/introspect', { token: tokens.access_token }, auth)).json();
  assert.equal(introspected.active, true);
  assert.equal(introspected.username, user.username);
});
