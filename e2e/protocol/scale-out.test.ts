// Two instances on one database behave as one: the same keys, and each accepts what the other issued.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { after, before, test } from 'node:test';
import { basic, baseUrl, codeFlow, databaseUrl, makeClient, post, redirectUri } from '../support/fixtures.ts';

let second: string;
let stop: () => void;

before(async () => {
  const port = await new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
  // Same ISSUER as the first instance: behind a load balancer both answer for one origin.
  const child = spawn(process.execPath, ['node_modules/next/dist/bin/next', 'start', '-p', String(port)], {
    env: { ...process.env, DATABASE_URL: databaseUrl, ISSUER: baseUrl, NEXT_TELEMETRY_DISABLED: '1' },
    stdio: 'ignore',
  });
  stop = () => child.kill('SIGTERM');
  second = `http://localhost:${port}`;
  for (let i = 0; i < 150; i++) {
    try {
      if ((await fetch(`${second}/.well-known/openid-configuration`)).ok) return;
    } catch {
      // starting
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('the second instance did not start');
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
