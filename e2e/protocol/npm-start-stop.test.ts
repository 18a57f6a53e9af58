// runs-on: once
// A stop sent to any process of `npm start`'s tree stops the server gracefully and leaves nothing behind
// (README, *Stopping*). The tree is npm -> the wrapper (scripts/node.mjs, which npm's shell `exec`s) ->
// the server (scripts/start.mjs importing scripts/server.mjs). A container runtime or a supervisor signals
// npm, the main process; Ctrl-C's SIGINT may reach only npm too. Before, npm passed the signal to its
// shell, the shell died, npm exited, and the server went on answering, orphaned. Each case runs the real
// npm on the suite's build, signals one process, and checks that the server logged its graceful stop,
// that its port closes and that no process of the tree is left (by PID). Runs once per suite run: on the
// SQLite run of npm start's server (the other runs start the very same processes). npm or the wrapper
// killed outright (SIGKILL) passes nothing on: the process below notices its parent is gone
// (scripts/parent-watch.mjs) and stops as on SIGTERM.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { after, before, test } from 'node:test';
import { distDir } from '../../lib/config/dist-dir.ts';
import { sourceHash, stampFile } from '../../scripts/build-stamp.mjs';
import { databaseUrl } from '../support/fixtures.ts';
import { freePort, isolatedDatabase } from '../support/server.ts';

const skip = process.env.GATEHOUSE_TEST_MOUNT === 'next' || !databaseUrl.startsWith('file:') ? "runs on the SQLite run of npm start's server" : false;
/** How long the tree may take to be gone after the signal: the server's own limit is 15 s (STOP_LIMIT_MS). */
const GONE_WITHIN_MS = 20_000;
const db = isolatedDatabase('npm-start-stop');

before(() => {
  // The suite runs every server on this build as the build of these sources (scripts/test.ts made it, or
  // --skip-build says it stands): `npm start` is told the same, or it would build again first.
  if (!skip) writeFileSync(stampFile(distDir()), sourceHash());
});
after(() => db.drop());

/** A process's parent and arguments, from /proc; undefined once it is gone (a zombie counts as gone: it runs nothing). */
function processInfo(pid: number): { ppid: number; argv: string[] } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (state === 'Z' || state === 'X') return undefined;
    return { ppid: Number(ppid), argv: readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean) };
  } catch {
    return undefined;
  }
}

type Process = { pid: number; argv: string[] };

/** Every live descendant of `root`, with its arguments. */
function descendants(root: number): Process[] {
  const all = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => ({ pid: Number(name), ...processInfo(Number(name)) }))
    .filter((p): p is Process & { ppid: number } => p.ppid !== undefined);
  const found: Process[] = [];
  for (let parents = new Set([root]); parents.size; ) {
    const children = all.filter((p) => parents.has(p.ppid));
    found.push(...children.map(({ pid, argv }) => ({ pid, argv })));
    parents = new Set(children.map((p) => p.pid));
  }
  return found;
}

/** A Node process (not a shell whose command line names the script) running `script`: `node [node options] script ...`. */
const runs = (p: Process, script: string) => basename(p.argv[0] ?? '') === 'node' && p.argv.slice(1).find((arg) => !arg.startsWith('-')) === script;

/** Whether something accepts connections on 127.0.0.1:`port` (any answer counts). */
async function listening(port: number): Promise<boolean> {
  try {
    await (await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(5_000) })).arrayBuffer();
    return true;
  } catch {
    return false;
  }
}

interface NpmStart {
  npm: ChildProcess;
  wrapper: number;
  server: number;
  port: number;
  output(): string;
}

/** `npm start` (the npm running this suite, else the one on PATH) on a port of its own, once /readyz answers 200. */
async function npmStart(): Promise<NpmStart> {
  const port = await freePort();
  const npmCli = process.env.npm_execpath;
  const [command, args] = npmCli ? [process.execPath, [npmCli, 'start']] : ['npm', ['start']];
  const npm = spawn(command, args, {
    env: {
      ...process.env,
      DATABASE_URL: db.url,
      ISSUER: `http://127.0.0.1:${port}`,
      PORT: String(port),
      ADMIN_PASSWORD: randomBytes(18).toString('base64url'),
      METRICS_PORT: '',
      NEXT_TELEMETRY_DISABLED: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  npm.stdout?.on('data', (chunk) => (output += chunk));
  npm.stderr?.on('data', (chunk) => (output += chunk));
  const started = { npm, port, output: () => output };
  for (const deadline = Date.now() + 60_000; Date.now() < deadline && npm.exitCode === null && npm.signalCode === null; ) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(5_000) })).ok) {
        const tree = descendants(npm.pid!);
        const wrapper = tree.find((p) => runs(p, 'scripts/node.mjs'));
        const server = tree.find((p) => runs(p, 'scripts/start.mjs'));
        assert.ok(wrapper && server, `npm's tree holds the wrapper and the server: ${JSON.stringify(tree)}`);
        return { ...started, wrapper: wrapper.pid, server: server.pid };
      }
    } catch (error) {
      if (error instanceof assert.AssertionError) throw error;
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  npm.kill('SIGKILL');
  throw new Error(`npm start did not get ready:\n${output}`);
}

/** Signals `target` of the tree, then waits until the port is closed and npm, the wrapper and the server are gone. */
async function stopBy(started: NpmStart, target: 'npm' | 'wrapper' | 'server', signal: NodeJS.Signals) {
  const pids = { npm: started.npm.pid!, wrapper: started.wrapper, server: started.server };
  const tree = [pids.npm, ...descendants(pids.npm).map((p) => p.pid)];
  process.kill(pids[target], signal);
  const signalledAt = Date.now();
  let left: number[] = tree;
  let open = true;
  while (Date.now() - signalledAt < GONE_WITHIN_MS) {
    left = tree.filter((pid) => processInfo(pid));
    open = await listening(started.port);
    if (!left.length && !open) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  try {
    const log = started.output();
    assert.equal(open, false, `the port still answers ${Math.round((Date.now() - signalledAt) / 1000)} s after ${signal} to ${target}:\n${log}`);
    assert.deepEqual(left, [], `processes of the tree left after ${signal} to ${target} (tree ${tree.join(', ')}):\n${log}`);
    // The graceful stop ran (scripts/server.mjs): not a kill.
    assert.match(log, /"msg":"stopping"/, log);
    assert.match(log, /"msg":"stopped"/, log);
    assert.doesNotMatch(log, /not stopped after|closing their connections/, log);
  } finally {
    for (const pid of tree) if (processInfo(pid)) process.kill(pid, 'SIGKILL');
  }
}

test('SIGTERM to npm (what a container runtime or a supervisor sends to the main process) stops the server gracefully, nothing left', {
  skip,
  timeout: 120_000,
}, async () => {
  const started = await npmStart();
  await stopBy(started, 'npm', 'SIGTERM');
  assert.match(started.output(), /"signal":"SIGTERM".*"msg":"stopping"/);
  // Gone from the process table is not yet reaped by this process: its exit status arrives with the child's 'exit' event.
  if (started.npm.exitCode === null && started.npm.signalCode === null) await once(started.npm, 'exit');
  assert.deepEqual([started.npm.exitCode, started.npm.signalCode], [0, null], 'npm waited for the server and exited 0');
});

test('SIGINT to npm alone stops the server gracefully, nothing left', { skip, timeout: 120_000 }, async () => {
  const started = await npmStart();
  await stopBy(started, 'npm', 'SIGINT');
  assert.match(started.output(), /"signal":"SIGINT".*"msg":"stopping"/);
});

test('SIGTERM to the wrapper (scripts/node.mjs) stops the server gracefully, nothing left', { skip, timeout: 120_000 }, async () => {
  await stopBy(await npmStart(), 'wrapper', 'SIGTERM');
});

test('SIGTERM to the server stops it gracefully, and the wrapper and npm exit with it', { skip, timeout: 120_000 }, async () => {
  await stopBy(await npmStart(), 'server', 'SIGTERM');
});

test('npm killed outright (SIGKILL): the wrapper finds its parent gone and stops the server gracefully', { skip, timeout: 120_000 }, async () => {
  await stopBy(await npmStart(), 'npm', 'SIGKILL');
});

test('the wrapper killed outright (SIGKILL): the server finds it gone and stops gracefully, npm exits', { skip, timeout: 120_000 }, async () => {
  await stopBy(await npmStart(), 'wrapper', 'SIGKILL');
});
