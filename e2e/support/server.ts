/**
 * Starts another Gatehouse instance on the built app for tests that need one,
 * mounted as the suite's own server is (GATEHOUSE_TEST_MOUNT, set by scripts/test.ts):
 * `server` = scripts/server.mjs (`npm start`), `next` = plain `next start`.
 */
import { spawn } from 'node:child_process';
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

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** Starts an instance with the given environment; resolves once discovery answers. */
/** `env` adds to the test run's environment (BRAND_NAME and the like: any setting of lib/config/env.ts). */
/** `output` gets what the instance writes (its log) on stdout and stderr; without it, that is dropped. */
export async function startInstance(
  env: { DATABASE_URL: string; ISSUER?: string } & Record<string, string>,
  port?: number,
  { output }: { output?: (text: string) => void } = {},
) {
  const listen = port ?? (await freePort());
  const url = `http://localhost:${listen}`;
  const child = spawn(process.execPath, serverCommand(process.env.GATEHOUSE_TEST_MOUNT === 'next' ? 'next' : 'server', listen), {
    env: { ...process.env, ISSUER: url, ...env, NEXT_TELEMETRY_DISABLED: '1' },
    stdio: output ? ['ignore', 'pipe', 'pipe'] : 'ignore',
  });
  if (output) {
    child.stdout?.on('data', (chunk: Buffer) => output(chunk.toString('utf8')));
    child.stderr?.on('data', (chunk: Buffer) => output(chunk.toString('utf8')));
  }
  // Resolves once the process is gone, so the next instance can take its port and its SQLite file.
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  for (let i = 0; i < 150; i++) {
    try {
      if ((await fetch(`${url}/.well-known/openid-configuration`)).ok) return { url, stop };
    } catch {
      // still starting
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  await stop();
  throw new Error(`the instance on ${url} did not start`);
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
