// runs-on: once
// An instance at an IP address: `npm start` binds every interface by default and only HOSTNAME's address when it is
// set (README, *Configuration*); an ISSUER whose host is an IP address, where browsers refuse passkeys, makes the
// start-up log say so once and the sign-in page offer none. Runs on npm start's server (scripts/server.mjs);
// `next start` has its own -H.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
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
// The port on 127.0.0.1 is held by this placeholder for the whole file. A port free for the moment is free on
// 127.0.0.1 only; the instance bound to 127.0.0.2 leaves it so, and a server of another file running side by side
// once took it, so "nothing answers on 127.0.0.1" failed for a reason that had nothing to do with HOSTNAME. Held
// here, it proves more: an instance that bound every interface could not start at all (EADDRINUSE).
let placeholder: Server | undefined;
const placeholderBody = 'placeholder, not Gatehouse';

before(async () => {
  if (skip) return;
  placeholder = createServer((_request, response) => response.end(placeholderBody));
  port = await new Promise<number>((resolve, reject) => {
    placeholder!.once('error', reject).listen(0, '127.0.0.1', () => resolve((placeholder!.address() as { port: number }).port));
  });
  server = await startServer(
    { DATABASE_URL: own.url, HOSTNAME: '127.0.0.2', ADMIN_PASSWORD: randomBytes(18).toString('base64url'), METRICS_PORT: '' },
    { port, mount: 'server', host: '127.0.0.2' },
  );
});

after(async () => {
  await server?.stop();
  await new Promise((resolve) => (placeholder ? placeholder.close(resolve) : resolve(undefined)));
  await closeDatabase(own.url);
  await own.drop();
});

test('without HOSTNAME, every interface: the suite’s server answers on 127.0.0.2 too', { skip }, async () => {
  assert.equal(await answers(`http://127.0.0.2:${new URL(baseUrl).port}/healthz`), true);
});

test('HOSTNAME=127.0.0.2: that address answers, 127.0.0.1 is left to another program, and the start-up line names it', { skip }, async () => {
  const health = await fetch(`http://127.0.0.2:${port}/healthz`, { signal: AbortSignal.timeout(10_000) });
  assert.deepEqual(await health.json(), { status: 'ok' });
  const other = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(10_000) });
  assert.equal(await other.text(), placeholderBody, 'not bound on 127.0.0.1');
  // The line is written when listen() calls back, and the log reaches the pipe a moment after: the health check
  // that told startServer the instance is up can come first.
  const line = new RegExp(`listening on 127\\.0\\.0\\.2:${port}`);
  for (let waited = 0; !line.test(server!.output()) && waited < 5_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
  assert.match(server!.output(), line);
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
