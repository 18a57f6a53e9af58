// runs-on: databases
// Rotating SECRETS_KEY (README, "Rotating SECRETS_KEY"), end to end on an instance of its own:
// started with key A, a relying party gets tokens, a person signs in, another turns TOTP on; restarted
// with `B,A`, every sealed row is re-encrypted under B at start; restarted with `B` alone, the same
// signing keys are published, the refresh token and the browser session still work and the TOTP user
// signs in with a code. A start with neither key stops, naming the table it could not open.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import * as oidc from 'openid-client';
import { closeDatabase, database } from '../../lib/db/database.ts';
import { keyringOf } from '../../lib/db/keyring.ts';
import { SEALED_COLUMNS } from '../../lib/db/start-checks.ts';
import { freePort, isolatedDatabase, spawnServer, startInstance } from '../support/server.ts';

const [keyA, keyB, stranger] = [randomBytes(32), randomBytes(32), randomBytes(32)];
const own = isolatedDatabase('secrets-rotation');
const port = await freePort();
// The fixtures read where the server is, and the keyring of this process reads SECRETS_KEY, on first use:
// both are this file's own instance (the TOTP secret it enrols is sealed under A, as the server's would be).
process.env.GATEHOUSE_TEST_URL = `http://localhost:${port}`;
process.env.GATEHOUSE_TEST_DATABASE_URL = own.url;
process.env.SECRETS_KEY = keyA.toString('base64');
const { authorize, TestBrowser } = await import('../support/browser.ts');
const { authorizationRequest, baseUrl, discover, makeClient, makeUser, signIn } = await import('../support/fixtures.ts');

let stop: (() => Promise<void>) | undefined;
const start = async (secretsKey: Buffer[]) => {
  await stop?.();
  ({ stop } = await startInstance({ DATABASE_URL: own.url, ISSUER: baseUrl, SECRETS_KEY: secretsKey.map((k) => k.toString('base64')).join(',') }, port));
};

after(async () => {
  await stop?.();
  await closeDatabase(own.url);
  await own.drop();
});

/** Every sealed value, by table (the columns resealSecrets covers: lib/db/secrets.ts, checked at start by lib/db/start-checks.ts). */
async function sealedValues(): Promise<Record<string, string[]>> {
  const { sql } = database(own.url);
  const values: Record<string, string[]> = {};
  for (const [table, column] of Object.entries(SEALED_COLUMNS)) {
    values[table] = (await sql.all<{ v: string | null }>(`SELECT ${column} AS v FROM ${table}`)).flatMap((r) => (r.v ? [r.v] : []));
  }
  return values;
}

/**
 * The tables this test fills through the server: keys, server secrets, a TOTP secret. A connection's client
 * secret and an identity's kept upstream tokens are re-sealed by the same code, proven in lib/db/secrets.test.ts.
 */
const filledTables = ['signing_keys', 'server_secrets', 'user_factors'];

const jwks = async () => (await (await fetch(`${baseUrl}/oauth/jwks`)).json()) as { keys: { kid: string }[] };

/** A silent authorization request (OIDC Core §3.1.2.1, prompt=none) in `browser`: the code, or the error. */
async function silent(browser: InstanceType<typeof TestBrowser>, client: Awaited<ReturnType<typeof makeClient>>) {
  const { url } = await authorizationRequest(client, { prompt: 'none', scope: 'openid' });
  const { location } = await browser.navigate(url);
  return location?.searchParams.get('code') ? 'code' : location?.searchParams.get('error');
}

let client: Awaited<ReturnType<typeof makeClient>>;
let refreshToken: string;
let published: string[];
let totpUser: Awaited<ReturnType<typeof makeUser>>;
const browser = new TestBrowser(`http://localhost:${port}`);

before(async () => {
  await start([keyA]);
  client = await makeClient({ grantTypes: ['authorization_code', 'refresh_token'] });
  const rp = await signIn(client);
  refreshToken = rp.tokens.refresh_token!;
  const { url } = await authorizationRequest(client, { scope: 'openid' });
  assert.ok((await authorize(browser, url, await makeUser())).searchParams.get('code'));
  totpUser = await makeUser({ secondFactor: true });
  published = (await jwks()).keys.map((k) => k.kid).sort();
  const underA = keyringOf([keyA]);
  for (const table of filledTables) {
    const values = (await sealedValues())[table];
    assert.ok(values.length > 0, `${table} holds something to rotate`);
    for (const value of values) assert.ok(underA.isCurrent(value), `${table} starts under A`);
  }
});

test('restarted with `B,A`: every sealed value is re-encrypted under B, and everything works', async () => {
  await start([keyB, keyA]);
  const underB = keyringOf([keyB]);
  for (const [table, values] of Object.entries(await sealedValues())) {
    for (const value of values) assert.ok(underB.isCurrent(value), `${table} is under B`);
  }
  assert.deepEqual((await jwks()).keys.map((k) => k.kid).sort(), published, 'the same signing keys');
  const config = await discover(client);
  const refreshed = await oidc.refreshTokenGrant(config, refreshToken);
  refreshToken = refreshed.refresh_token ?? refreshToken;
  assert.ok(refreshed.access_token);
});

test('restarted with `B` alone: the same keys, the refresh token, the session and the TOTP secret all still work', async () => {
  await start([keyB]);
  assert.deepEqual((await jwks()).keys.map((k) => k.kid).sort(), published, 'discovery points at the same JWKS');
  const config = await discover(client);
  const refreshed = await oidc.refreshTokenGrant(config, refreshToken);
  assert.ok(refreshed.id_token, 'an ID token signed with a key that came through the rotation');
  assert.equal(await silent(browser, client), 'code', 'the browser session signed in under A still counts');
  const { url } = await authorizationRequest(client, { scope: 'openid' });
  const callback = await authorize(new TestBrowser(baseUrl), url, totpUser);
  assert.ok(callback.searchParams.get('code'), 'signed in with a TOTP code: its secret opens under B');
});

test('a start whose keys open nothing stored stops, naming the table and no stored value', async () => {
  await stop?.();
  stop = undefined;
  const server = await spawnServer({ DATABASE_URL: own.url, ISSUER: baseUrl, SECRETS_KEY: stranger.toString('base64') }, { port });
  // `npm start`'s server exits; `next start` may log the failure and stay up: either way the line is written.
  for (const deadline = Date.now() + 30_000; Date.now() < deadline && server.child.exitCode === null && !server.output().includes('start-up failed'); ) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await server.stop();
  const output = server.output();
  assert.match(output, /cannot re-encrypt signing_keys: .*not among SECRETS_KEY's keys/);
  for (const values of Object.values(await sealedValues())) for (const value of values) assert.ok(!output.includes(value));
});
