// Where `npm start` listens: every interface by default, only HOSTNAME's address when it is set (README,
// *Configuration*). Runs on npm start's server (scripts/server.mjs); `next start` has its own -H.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { baseUrl } from '../support/fixtures.ts';
import { freePort, isolatedDatabase, startServer } from '../support/server.ts';

const skip = process.env.GATEHOUSE_TEST_MOUNT === 'next' ? "scripts/server.mjs's setting (next start binds with -H)" : false;

/** Whether anything answers HTTP at `url`: false when the connection is refused. */
const answers = (url: string) =>
  fetch(url, { signal: AbortSignal.timeout(10_000) }).then(
    () => true,
    () => false,
  );

test('without HOSTNAME, every interface: the suite’s server answers on 127.0.0.2 too', { skip }, async () => {
  const { port } = new URL(baseUrl);
  assert.equal(await answers(`http://127.0.0.2:${port}/healthz`), true);
});

test('HOSTNAME=127.0.0.2: that address answers, 127.0.0.1 is refused, and the start-up line names it', { skip }, async () => {
  const own = isolatedDatabase('bind-address');
  const port = await freePort();
  const server = await startServer(
    { DATABASE_URL: own.url, HOSTNAME: '127.0.0.2', ADMIN_PASSWORD: randomBytes(18).toString('base64url'), METRICS_PORT: '' },
    { port, mount: 'server', host: '127.0.0.2' },
  );
  try {
    assert.equal(await answers(`http://127.0.0.2:${port}/healthz`), true);
    assert.equal(await answers(`http://127.0.0.1:${port}/healthz`), false, 'not bound on 127.0.0.1');
    assert.match(server.output(), new RegExp(`listening on 127\\.0\\.0\\.2:${port}`));
  } finally {
    await server.stop();
    await own.drop();
  }
});
