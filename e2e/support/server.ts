/**
 * Starts another Gatehouse instance on the built app for tests that need one,
 * mounted as the suite's own server is (GATEHOUSE_TEST_MOUNT, set by scripts/test.ts):
 * `server` = scripts/server.mjs (`npm start`), `next` = plain `next start`.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
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
export async function startInstance(env: { DATABASE_URL: string; ISSUER?: string } & Record<string, string>, port?: number) {
  const listen = port ?? (await freePort());
  const url = `http://localhost:${listen}`;
  const child = spawn(process.execPath, serverCommand(process.env.GATEHOUSE_TEST_MOUNT === 'next' ? 'next' : 'server', listen), {
    env: { ...process.env, ISSUER: url, ...env, NEXT_TELEMETRY_DISABLED: '1' },
    stdio: 'ignore',
  });
  const stop = () => void child.kill('SIGTERM');
  for (let i = 0; i < 150; i++) {
    try {
      if ((await fetch(`${url}/.well-known/openid-configuration`)).ok) return { url, stop };
    } catch {
      // still starting
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  stop();
  throw new Error(`the instance on ${url} did not start`);
}
