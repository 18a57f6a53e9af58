// runs-on: mounts
// A start with mistyped settings names each in one warning line, with the setting it probably meant
// (lib/config/mistyped-settings.ts), and nothing else of the environment it runs in (the suite's own:
// PATH, HOME, NODE_*, npm_*, the test run's variables). The values are never logged. On the SQLite
// run only: what the start reads from its environment does not depend on the store.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, test } from 'node:test';
import { databaseUrl } from '../support/fixtures.ts';
import { isolatedDatabase, startServer } from '../support/server.ts';

const skip = databaseUrl.startsWith('file:') ? false : 'runs on the SQLite run';
const db = isolatedDatabase('mistyped-settings');
after(() => db.drop());

test('SECRET_KEY, REDIS_URI and LOGLEVEL are each warned about with the setting meant, and nothing else is', { skip, timeout: 60_000 }, async () => {
  const secret = `never-logged-${randomBytes(12).toString('hex')}`;
  const server = await startServer(
    {
      DATABASE_URL: db.url,
      ADMIN_PASSWORD: randomBytes(18).toString('base64url'),
      METRICS_PORT: '',
      SECRET_KEY: secret,
      REDIS_URI: `redis://:${secret}@127.0.0.1:6379`,
      LOGLEVEL: 'debug',
    },
    { host: '127.0.0.1' },
  );
  try {
    // A probe's request line is logged at debug (lib/ops/request-observer.ts): under LOG_LEVEL=debug it would be written.
    await (await fetch(`${server.url}/healthz`)).arrayBuffer();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const lines = server
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { level: number; msg: string; variable?: string; meant?: string });
    const warned = lines.filter((line) => line.msg.includes('is not a Gatehouse setting'));
    assert.deepEqual(
      warned.map(({ level, variable, meant, msg }) => ({ level, variable, meant, msg })).sort((a, b) => String(a.variable).localeCompare(String(b.variable))),
      [
        { level: 40, variable: 'LOGLEVEL', meant: 'LOG_LEVEL', msg: 'LOGLEVEL is not a Gatehouse setting and is ignored: did you mean LOG_LEVEL?' },
        { level: 40, variable: 'REDIS_URI', meant: 'REDIS_URL', msg: 'REDIS_URI is not a Gatehouse setting and is ignored: did you mean REDIS_URL?' },
        { level: 40, variable: 'SECRET_KEY', meant: 'SECRETS_KEY', msg: 'SECRET_KEY is not a Gatehouse setting and is ignored: did you mean SECRETS_KEY?' },
      ],
      server.output(),
    );
    assert.doesNotMatch(server.output(), new RegExp(secret), 'no value is logged');
    // Ignored indeed: LOGLEVEL=debug left the level at info, so the probe's line was not written.
    assert.equal(
      lines.some((line) => line.level < 30),
      false,
      'no debug line',
    );
  } finally {
    await server.stop();
  }
});
