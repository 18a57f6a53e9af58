// `npm start`'s server starts and stops cleanly, again and again, on the Node the suite runs on:
// Node 24 with better-sqlite3 12 aborted at start ("Assertion failed: (env) != nullptr"), a
// defect whatever the runtime. Each round starts scripts/server.mjs on a new SQLite database
// (migrations, keys, the admin: the most writes a start makes), then again on that database,
// and stops it as a supervisor does (SIGTERM). Runs once per suite run: on the SQLite run of
// npm start's server, as the other runs start the very same server.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { databaseUrl } from '../support/fixtures.ts';
import { freePort, serverCommand } from '../support/server.ts';

const ROUNDS = 5;
const skip = process.env.GATEHOUSE_TEST_MOUNT === 'next' || !databaseUrl.startsWith('file:') ? "runs on the SQLite run of npm start's server" : false;
const dir = mkdtempSync(join(tmpdir(), 'gatehouse-lifecycle-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Starts the server, waits for discovery, stops it with SIGTERM; how it exited and what it printed. */
async function startAndStop(dbUrl: string) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, serverCommand('server', port), {
    env: {
      ...process.env,
      DATABASE_URL: dbUrl,
      ISSUER: url,
      ADMIN_PASSWORD: randomBytes(18).toString('base64url'),
      METRICS_PORT: '', // no metrics listener: a port set in the environment would be bound by each start in turn
      NEXT_TELEMETRY_DISABLED: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  let served = false;
  for (const deadline = Date.now() + 30_000; Date.now() < deadline && child.exitCode === null && child.signalCode === null; ) {
    try {
      served = (await fetch(`${url}/.well-known/openid-configuration`)).ok;
      if (served) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  const exit = await exited;
  clearTimeout(timer);
  return { served, ...exit, output };
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
