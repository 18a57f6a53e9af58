// runs-on: once
// An instance at an IP address: `npm start` binds every interface by default and only HOSTNAME's address when it is
// set (README, *Configuration*); an ISSUER whose host is an IP address, where browsers refuse passkeys, makes the
// start-up log say so once and the sign-in page offer none. Runs on npm start's server (scripts/server.mjs);
// `next start` has its own -H.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { after, before, test } from 'node:test';
import { closeDatabase, database } from '../../lib/db/database.ts';
import { registerClient } from '../../lib/clients/manage.ts';
import { TestBrowser } from '../support/browser.ts';
import { authorizeQuery, baseUrl, databaseUrl, pkce, redirectUri } from '../support/fixtures.ts';
import { freePort, isolatedDatabase, type ServerProcess, startServer } from '../support/server.ts';

const skip = process.env.GATEHOUSE_TEST_MOUNT === 'next' ? "scripts/server.mjs's setting (next start binds with -H)" : false;

/** Whether anything answers HTTP at `url`: false when the connection is refused. */
const answers = (url: string) =>
  fetch(url, { signal: AbortSignal.timeout(10_000) }).then(
    () => true,
    () => false,
  );

const own = isolatedDatabase('bind-address');
let server: ServerProcess | undefined;
let port = 0;

before(async () => {
  if (skip) return;
  port = await freePort();
  server = await startServer(
    { DATABASE_URL: own.url, HOSTNAME: '127.0.0.2', ADMIN_PASSWORD: randomBytes(18).toString('base64url'), METRICS_PORT: '' },
    { port, mount: 'server', host: '127.0.0.2' },
  );
});

after(async () => {
  await server?.stop();
  await closeDatabase(own.url);
  await own.drop();
});

test('without HOSTNAME, every interface: the suite’s server answers on 127.0.0.2 too', { skip }, async () => {
  assert.equal(await answers(`http://127.0.0.2:${new URL(baseUrl).port}/healthz`), true);
});

test('HOSTNAME=127.0.0.2: that address answers, 127.0.0.1 is refused, and the start-up line names it', { skip }, async () => {
  assert.equal(await answers(`http://127.0.0.2:${port}/healthz`), true);
  assert.equal(await answers(`http://127.0.0.1:${port}/healthz`), false, 'not bound on 127.0.0.1');
  assert.match(server!.output(), new RegExp(`listening on 127\\.0\\.0\\.2:${port}`));
});

test('HOSTNAME set to the machine’s own name, as container runtimes do: ignored, every interface as before', { skip }, async () => {
  const other = isolatedDatabase('bind-own-name');
  const otherPort = await freePort();
  const instance = await startServer(
    { DATABASE_URL: other.url, HOSTNAME: hostname(), ADMIN_PASSWORD: randomBytes(18).toString('base64url'), METRICS_PORT: '' },
    { port: otherPort, mount: 'server', host: '127.0.0.1' },
  );
  try {
    for (const address of ['127.0.0.1', '127.0.0.2']) assert.equal(await answers(`http://${address}:${otherPort}/healthz`), true, address);
  } finally {
    await instance.stop();
    await other.drop();
  }
});

test('ISSUER at an IP address: one warning at start, and no passkey on the sign-in page (the suite’s localhost offers one)', { skip }, async () => {
  const warnings = server!.output().match(/is an IP address, where browsers refuse passkeys/g) ?? [];
  assert.equal(warnings.length, 1, server!.output());
  const signInPage = async (origin: string, dbUrl: string) => {
    const { client } = await registerClient(database(dbUrl), { name: `App ${randomBytes(4).toString('hex')}`, redirectUris: [redirectUri] });
    const { challenge } = await pkce();
    const page = await new TestBrowser(origin).navigate(`/oauth/authorize?${authorizeQuery(client, challenge)}`);
    assert.match(page.url.pathname, /^\/interaction\//);
    return page.response.text();
  };
  assert.doesNotMatch(await signInPage(`http://127.0.0.2:${port}`, own.url), /\/passkey"/);
  assert.match(await signInPage(baseUrl, databaseUrl), /\/passkey"/);
});
