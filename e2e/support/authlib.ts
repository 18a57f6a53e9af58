/**
 * Authlib (Debian: `apt-get install python3-authlib python3-requests`; .ci/run installs them) as an API that checks
 * each request's token by introspection at Gatehouse: ./authlib-resource-server.py, one process per API audience,
 * for e2e/protocol/authlib-introspection.test.ts.
 */
import { spawn, spawnSync } from 'node:child_process';
import type { Socket } from 'node:net';
import { fileURLToPath } from 'node:url';

/** Debian's interpreter, where its python3-authlib is installed (a python3 earlier on PATH may be another one). */
const PYTHON = '/usr/bin/python3';
const SCRIPT = fileURLToPath(new URL('./authlib-resource-server.py', import.meta.url));

/** Whether Debian's python3 imports Authlib and requests. */
export function hasAuthlib(): boolean {
  return spawnSync(PYTHON, ['-c', 'import authlib, requests'], { stdio: 'ignore' }).status === 0;
}

export interface AuthlibApi {
  /** GET it with `Authorization: Bearer <token>`. */
  url: string;
  stop(): Promise<void>;
}

export interface AuthlibApiSettings {
  introspectionEndpoint: string;
  /** The resource server's own client, registered to introspect. */
  clientId: string;
  clientSecret: string;
  /** The API's identifier: a token for any other audience is refused. */
  audience: string;
  /** The scope every request needs. */
  scope: string;
}

export async function startAuthlibApi(settings: AuthlibApiSettings): Promise<AuthlibApi> {
  const child = spawn(PYTHON, [SCRIPT, settings.introspectionEndpoint, settings.clientId, settings.audience, settings.scope], {
    stdio: ['ignore', 'pipe', 'pipe'],
    // The secret in the environment, not in the arguments every process may read.
    env: { ...process.env, INTROSPECTION_CLIENT_SECRET: settings.clientSecret },
  });
  let output = '';
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  const port = await new Promise<string | undefined>((resolve) => {
    const timer = setTimeout(() => resolve(undefined), 20_000);
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const found = /listening (\d+)/.exec(output);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    });
    child.once('exit', () => resolve(undefined));
  });
  if (!port) {
    await stop();
    throw new Error(`the Authlib resource server did not start:\n${output}`);
  }
  // Never what keeps the test's process alive (node:test runs a file's after hooks only once its loop is empty, so
  // a child holding it would hang the file after a timed-out test), and never left behind when it exits.
  child.unref();
  for (const pipe of [child.stdout, child.stderr]) (pipe as unknown as Socket).unref();
  process.once('exit', () => child.kill('SIGTERM'));
  return { url: `http://127.0.0.1:${port}/api`, stop };
}
