// runs-on: once
// `npm start`'s server starts and stops cleanly, again and again, on the Node the suite runs on:
// Node 24 with better-sqlite3 12 aborted at start ("Assertion failed: (env) != nullptr"), a
// defect whatever the runtime. Each round starts scripts/server.mjs on a new SQLite database
// (migrations, keys, the admin: the most writes a start makes), then again on that database,
// and stops it as a supervisor does (SIGTERM). Runs once per suite run: on the SQLite run of
// npm start's server, as the other runs start the very same server.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { databaseUrl } from '../support/fixtures.ts';
import { spawnServer, untilReady } from '../support/server.ts';

const ROUNDS = 5;
const skip = process.env.GATEHOUSE_TEST_MOUNT === 'next' || !databaseUrl.startsWith('file:') ? "runs on the SQLite run of npm start's server" : false;
const dir = mkdtempSync(join(tmpdir(), 'gatehouse-lifecycle-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Starts the server, waits for discovery, stops it with SIGTERM; how it exited and what it printed. */
async function startAndStop(dbUrl: string) {
  const server = await spawnServer(
    {
      DATABASE_URL: dbUrl,
      ADMIN_PASSWORD: randomBytes(18).toString('base64url'),
      METRICS_PORT: '', // no metrics listener: a port set in the environment would be bound by each start in turn
    },
    { mount: 'server', host: '127.0.0.1' },
  );
  const served = await untilReady(server);
  const timer = setTimeout(() => server.child.kill('SIGKILL'), 15_000);
  const exit = await server.stop();
  clearTimeout(timer);
  return { served, ...exit, output: server.output() };
}

for (let round = 1; round <= ROUNDS; round++) {
  test(`round ${round}: the server starts on a new database and on the same database again, and stops with exit code 0`, { skip }, async () => {
    const dbUrl = `file:${join(dir, `round-${round}.db`)}`;
    for (const start of ['new database', 'existing database']) {
      const { served, code, signal, output } = await startAndStop(dbUrl);
      const context = `${start}, ${process.version}:\n${output}`;
      assert.equal(signal, null, `ended by ${signal} (${context})`);
      assert.doesNotMatch(output, /Assertion failed|FATAL ERROR|Segmentation fault/, context);
      assert.ok(served, `discovery did not answer (${context})`);
      assert.equal(code, 0, `exit code ${code} (${context})`);
    }
  });
}
