/**
 * Starts another Gatehouse instance on the built app for tests that need one,
 * mounted as the suite's own server is (GATEHOUSE_TEST_MOUNT, set by scripts/test.ts):
 * `server` = scripts/server.mjs (`npm start`), `next` = plain `next start`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import serverNodeFlags from '../../scripts/server-node-flags.json' with { type: 'json' };

/** How the provider is mounted: `server` = scripts/server.mjs (`npm start`), `next` = Next's route handlers. */
export type Mount = 'server' | 'next';

/** Node's arguments to start the built app on `port`, mounted as asked. */
export function serverCommand(mount: Mount, port: number): string[] {
  return mount === 'server' ? [...serverNodeFlags, 'scripts/server.mjs', '-p', String(port)] : ['node_modules/next/dist/bin/next', 'start', '-p', String(port)];
}

/** The ports freePort gave this process: one is free when given, but taken only once its taker listens. */
const given = new Set<number>();

/**
 * A port nothing listens on, never one this process was given before: a test that takes two (a metrics port, then
 * the server's) got the same one twice, since the first is not yet bound when the second is asked for.
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
      server.on('error', reject);
    });
    if (!given.has(port)) {
      given.add(port);
      return port;
    }
  }
}

/** How a server process ended: its exit code, or the signal that ended it. */
export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** A server process a test started: where it listens, everything it printed so far, how it ended. */
export interface ServerProcess {
  url: string;
  port: number;
  child: ChildProcess;
  output(): string;
  exited: Promise<Exit>;
  /** Sends `signal` (SIGTERM: what a supervisor sends) unless it ended already; resolves once it is gone. */
  stop(signal?: NodeJS.Signals): Promise<Exit>;
}

const suiteMount = (): Mount => (process.env.GATEHOUSE_TEST_MOUNT === 'next' ? 'next' : 'server');

/**
 * Spawns the built app on `port` (a free one by default) with the test run's environment plus `env`
 * (any setting of lib/config/env.ts), ISSUER its own URL unless given, and one process (WORKERS=1)
 * unless `env` asks for workers: a test that signals, kills or counts the server's process means that
 * one process. Returns at once (`untilReady` waits). `host`: the URL's host; `mount`: the suite's own unless given.
 */
export async function spawnServer(
  env: { DATABASE_URL: string; ISSUER?: string } & Record<string, string>,
  { port, mount = suiteMount(), host = 'localhost' }: { port?: number; mount?: Mount; host?: string } = {},
): Promise<ServerProcess> {
  const listen = port ?? (await freePort());
  const url = `http://${host}:${listen}`;
  const child = spawn(process.execPath, serverCommand(mount, listen), {
    env: { ...process.env, ISSUER: url, WORKERS: '1', ...env, NEXT_TELEMETRY_DISABLED: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  // Resolves once the process is gone, so the next instance can take its port and its SQLite file.
  const exited = new Promise<Exit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const stop = (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    return exited;
  };
  return { url, port: listen, child, output: () => output, exited, stop };
}

/**
 * Whether `path` (discovery; /readyz for what a load balancer asks) answered 2xx before the process ended or `timeoutMs` ran out.
 * A minute: a start takes 3–5 s alone, but in CI three lanes and Chromium share two cores, and a start that lost 30 s to
 * them failed tests that had nothing to do with starting.
 */
export async function untilReady(
  server: ServerProcess,
  { path = '/.well-known/openid-configuration', timeoutMs = 60_000 }: { path?: string; timeoutMs?: number } = {},
): Promise<boolean> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline && server.child.exitCode === null && server.child.signalCode === null; ) {
    try {
      if ((await fetch(`${server.url}${path}`, { signal: AbortSignal.timeout(10_000) })).ok) return true;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

/** `spawnServer` and `untilReady`: the server serving, or an error with what it printed (after killing it). */
export async function startServer(
  env: { DATABASE_URL: string; ISSUER?: string } & Record<string, string>,
  options: { port?: number; mount?: Mount; host?: string; ready?: { path?: string; timeoutMs?: number } } = {},
): Promise<ServerProcess> {
  const server = await spawnServer(env, options);
  if (await untilReady(server, options.ready)) return server;
  await server.stop('SIGKILL');
  throw new Error(`the server on ${server.url} did not start:\n${server.output()}`);
}

/** An instance beside the suite's server, mounted as it is: its URL and how to stop it. */
export async function startInstance(env: { DATABASE_URL: string; ISSUER?: string } & Record<string, string>, port?: number) {
  const { url, stop } = await startServer(env, { port });
  return { url, stop: async () => void (await stop()) };
}

/**
 * A database of a test file's own, of the suite's kind (GATEHOUSE_TEST_DATABASE_URL): a SQLite file
 * in a temporary folder, or a PostgreSQL schema of its own. For tests that restart instances with
 * settings the suite's server must not see (another SECRETS_KEY); `drop` removes it.
 */
export function isolatedDatabase(prefix: string): { url: string; drop: () => Promise<void> } {
  const suite = process.env.GATEHOUSE_TEST_DATABASE_URL ?? 'file:./data/gatehouse.db';
  if (suite.startsWith('file:')) {
    const dir = mkdtempSync(join(tmpdir(), `gatehouse-${prefix}-`));
    return { url: `file:${join(dir, `${prefix}.db`)}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const url = new URL(suite);
  const schema = `gh_${prefix.replace(/\W/g, '_')}_${randomBytes(4).toString('hex')}`;
  url.searchParams.set('schema', schema);
  return {
    url: url.toString(),
    drop: async () => {
      url.searchParams.delete('schema');
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
    },
  };
}
