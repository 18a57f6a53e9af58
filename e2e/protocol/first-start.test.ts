// runs-on: mounts
// A newcomer's first start on another port: without ISSUER the issuer is http://localhost:PORT, so
// discovery, the printed URLs and the portal's own sign-in all use the port the server listens on
// (before, they said :3000 whatever the port, and the portal's sign-in went to the wrong server).
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { freePort, isolatedDatabase, startServer } from '../support/server.ts';

const db = isolatedDatabase('first-start');
after(() => db.drop());

// ISSUER left out of the server's environment: spawn drops variables whose value is undefined.
const withoutIssuer = { ISSUER: undefined as unknown as string };

async function expectServedAs(origin: string, url: string, output: () => string) {
  const discovery = (await (await fetch(`${url}/.well-known/openid-configuration`)).json()) as Record<string, string>;
  assert.equal(discovery.issuer, origin);
  assert.equal(discovery.authorization_endpoint, `${origin}/oauth/authorize`);
  // The portal's sign-in starts at this server, for a redirect URI the portal's client has for it.
  const signIn = await fetch(`${url}/account/sign-in`, { redirect: 'manual' });
  const authorize = new URL(signIn.headers.get('location') ?? '');
  assert.equal(authorize.origin + authorize.pathname, `${origin}/oauth/authorize`);
  assert.equal(authorize.searchParams.get('redirect_uri'), `${origin}/api/auth/callback/gatehouse`);
  const cookie = signIn.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const interaction = await fetch(authorize, { redirect: 'manual', headers: { cookie } });
  assert.equal(interaction.status, 303, 'the provider accepts the portal client and its redirect URI');
  assert.match(interaction.headers.get('location') ?? '', /^\/interaction\/|^http:\/\/localhost:\d+\/interaction\//);
  const line = output()
    .split('\n')
    .find((l) => l.includes('ISSUER is unset'));
  assert.ok(line, `the start says where the issuer came from:\n${output()}`);
  assert.equal(JSON.parse(line).issuer, origin);
}

test('PORT alone: discovery, the log and the portal sign-in use http://localhost:PORT', { timeout: 90_000 }, async () => {
  const port = await freePort();
  const server = await startServer({ DATABASE_URL: db.url, PORT: String(port), ...withoutIssuer }, { port, host: 'localhost' });
  try {
    await expectServedAs(`http://localhost:${port}`, server.url, server.output);
  } finally {
    await server.stop();
  }
});

test('the server script given only -p PORT derives the same issuer', {
  skip: process.env.GATEHOUSE_TEST_MOUNT === 'next' ? 'the -p flag is the server script’s' : false,
  timeout: 90_000,
}, async () => {
  const port = await freePort();
  const server = await startServer(
    { DATABASE_URL: db.url, PORT: undefined as unknown as string, ...withoutIssuer },
    { port, host: 'localhost', mount: 'server' },
  );
  try {
    await expectServedAs(`http://localhost:${port}`, server.url, server.output);
  } finally {
    await server.stop();
  }
});
