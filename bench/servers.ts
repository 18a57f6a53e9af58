/**
 * The processes under test: Gatehouse (`npm start`'s server on the built app) and the
 * baseline, each on 127.0.0.1 and a free port outside 3000-3300 (also their
 * issuer, so that every URL they hand out stays on 127.0.0.1), with their
 * start-up time (spawn → first discovery 200) and peak memory (VmHWM of the
 * process and every descendant, from /proc).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import serverNodeFlags from '../scripts/server-node-flags.json' with { type: 'json' };

export const nextBin = join('node_modules', 'next', 'dist', 'bin', 'next');

export interface Server {
  name: string;
  port: number;
  base: string;
  issuer: string;
  child: ChildProcess;
  /** Spawn → first 200 from discovery, ms. */
  startMs: number;
  /** Largest VmHWM seen per pid of the process tree, kB. */
  peaks: Map<number, number>;
  stop(): Promise<void>;
}

/** A free port from the kernel's ephemeral range (never 3000-3300). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => (port >= 3000 && port <= 3300 ? freePort().then(resolve, reject) : resolve(port)));
    });
    server.on('error', reject);
  });
}

/** The pid and all its descendants (children by PPID, from /proc/<pid>/stat). */
export function processTree(root: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(Number(entry), ppid);
    } catch {
      // exited meanwhile
    }
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i++) for (const [pid, ppid] of parents) if (ppid === tree[i]) tree.push(pid);
  return tree;
}

function statusKb(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

/** Records the tree's VmHWM per pid (children may come and go between samples). */
export function samplePeaks(server: Server): void {
  if (server.child.pid === undefined || server.child.exitCode !== null) return;
  for (const pid of processTree(server.child.pid)) {
    server.peaks.set(pid, Math.max(server.peaks.get(pid) ?? 0, statusKb(pid, 'VmHWM')));
  }
}

/** Peak RSS of the trees (one server's, or every instance's of a configuration), MB: the sum of each process's own peak. */
export const peakRssMb = (...servers: Server[]) => Math.round(servers.flatMap((server) => [...server.peaks.values()]).reduce((a, b) => a + b, 0) / 1024);

async function waitForDiscovery(base: string, child: ChildProcess, log: () => string, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      const response = await fetch(`${base}/.well-known/openid-configuration`);
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  child.kill('SIGKILL');
  throw new Error(`server at ${base} did not start:\n${log().slice(-3000)}`);
}

async function waitForLine(line: RegExp, child: ChildProcess, log: () => string, timeoutMs = 90_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline && child.exitCode === null; ) {
    if (line.test(log())) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  child.kill('SIGKILL');
  throw new Error(`the server's log never said ${line}:\n${log().slice(-3000)}`);
}

export interface StartOptions {
  name: string;
  command: string[];
  env: Record<string, string | undefined>;
  port: number;
  logFile: string;
  /** The checkout it runs from (its own build): this one by default. */
  cwd?: string;
  /** The issuer it answers as: its own origin by default. */
  issuer?: string;
  /** Started once its log says this too, not at the first discovery 200 (workers: once every one serves). */
  readyLine?: RegExp;
}

export async function startServer({ name, command, env, port, logFile, cwd, issuer, readyLine }: StartOptions): Promise<Server> {
  const base = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn(command[0], command.slice(1), { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const file = createWriteStream(logFile);
  const keep = (chunk: Buffer) => {
    file.write(chunk);
    if (log.length < 200_000) log += chunk.toString();
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  await waitForDiscovery(base, child, () => log);
  if (readyLine) await waitForLine(readyLine, child, () => log);
  const server: Server = {
    name,
    port,
    base,
    issuer: issuer ?? base,
    child,
    startMs: Math.round(performance.now() - started),
    peaks: new Map(),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      samplePeaks(server);
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
      file.end();
    },
  };
  samplePeaks(server);
  return server;
}

/** `nodeArgs`: flags for node itself, e.g. --cpu-prof (Node 20 refuses it in NODE_OPTIONS). */
export function startGatehouse(options: {
  name: string;
  port: number;
  databaseUrl: string;
  /** REDIS_URL: the short-lived artifacts (and the throttle's counters) in Redis. */
  redisUrl?: string;
  adminPassword: string;
  logFile: string;
  nodeArgs?: string[];
  /** Another checkout of Gatehouse to run instead of this one (BENCH_COMPARE_CHECKOUT), with its own .next-bench build. */
  cwd?: string;
  /** ISSUER when not its own origin: a further instance answering as the first one (postgresql-redis-x2). */
  issuer?: string;
  /** WORKERS: `1` (one process, what every configuration but the `-shipped` ones measures) unless given. */
  workers?: string;
}) {
  const issuer = options.issuer ?? `http://127.0.0.1:${options.port}`;
  return startServer({
    name: options.name,
    port: options.port,
    logFile: options.logFile,
    cwd: options.cwd,
    issuer,
    // What `npm start` runs on a built app: the provider ahead of Next (scripts/server.mjs).
    command: [process.execPath, ...serverNodeFlags, ...(options.nodeArgs ?? []), join('scripts', 'server.mjs'), '-p', String(options.port), '-H', '127.0.0.1'],
    // Workers: measured once all of them serve (scripts/primary.mjs says so in one line).
    ...(options.workers && options.workers !== '1' && { readyLine: /"msg":"listening on \S+ with \d+ workers"/ }),
    env: {
      NODE_ENV: 'production',
      NEXT_TELEMETRY_DISABLED: '1',
      DATABASE_URL: options.databaseUrl,
      ISSUER: issuer,
      ADMIN_PASSWORD: options.adminPassword,
      PORT: String(options.port),
      REDIS_URL: options.redisUrl,
      // The protocol-feature rows (bench/protocol-rows.ts); the baseline has them on too.
      DEVICE_FLOW: 'on',
      DPOP: 'on',
      // One process unless asked: the rows compare it with the bare library, a process too, and the
      // earlier runs measured one; `auto` is what `npm start` runs when WORKERS is unset.
      WORKERS: options.workers ?? '1',
    },
  });
}

export function startBaseline(options: { port: number; configFile: string; logFile: string; nodeArgs?: string[] }) {
  return startServer({
    name: 'baseline',
    port: options.port,
    logFile: options.logFile,
    command: [process.execPath, ...(options.nodeArgs ?? []), '--import', 'tsx', join('bench', 'baseline-server.ts'), options.configFile],
    env: { NODE_ENV: 'production' },
  });
}

/**
 * The same build under plain `next start`: the provider behind Next's route
 * handlers (app/oauth, app/.well-known), on a Gatehouse's database and issuer,
 * to show what serving it ahead of Next is worth.
 */
export function startNextStart(options: { port: number; databaseUrl: string; issuer: string; logFile: string; nodeArgs?: string[] }) {
  return startServer({
    name: 'gatehouse-next-start',
    port: options.port,
    logFile: options.logFile,
    command: [process.execPath, ...(options.nodeArgs ?? []), nextBin, 'start', '-p', String(options.port), '-H', '127.0.0.1'],
    env: { NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1', DATABASE_URL: options.databaseUrl, ISSUER: options.issuer },
  });
}
