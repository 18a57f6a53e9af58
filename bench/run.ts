/**
 * `npm run bench`: Gatehouse (`npm start`'s server, scripts/server.mjs, production build) against a bare
 * oidc-provider with the same configuration (bench/baseline-server.ts), loaded
 * alternately with autocannon, plus this machine's argon2id and JWT limits.
 * Prints one table and writes bench/results/<timestamp>.json and latest.md.
 *
 *   npm run bench [-- options]
 *     --skip-build         use the existing .next-bench build
 *     --quick              smoke run: 1 round of 1 s per row
 *     --rows=a,b           only these rows (discovery, jwks, token, token_jwt, refresh_token,
 *                          client_credentials, client_credentials_jwt, introspection, userinfo, device_code,
 *                          dpop_client_credentials, dpop_userinfo, sign-in, federated-sign-in)
 *     --seconds=N          seconds per measurement (default 3)
 *     --rounds=N           rounds per row and connection count (default 2)
 *     --connections=1,32   connection counts
 *     --profile            run the servers with --cpu-prof and summarise Gatehouse's
 *                          profile over the load windows (bench/results/profile-*.md)
 *     --next-start         also the same build under plain `next start` (the provider behind
 *                          Next's route handlers), on the SQLite Gatehouse's database
 *   BENCH_DATABASE_URL=postgresql://...  also Gatehouse on PostgreSQL (a fresh schema, dropped afterwards)
 *   BENCH_REDIS_URL=redis://...          also Gatehouse on PostgreSQL with REDIS_URL (needs BENCH_DATABASE_URL;
 *                                        a schema of its own, its Redis keys deleted afterwards)
 *     --stores=a,b         only these Gatehouse configurations (sqlite, postgresql, postgresql-redis,
 *                          compare-sqlite, compare-postgresql; opt-in only: postgresql-redis-x2, two
 *                          instances of postgresql-redis on one schema, Redis namespace and issuer, each row's
 *                          connections split evenly across them, no sign-in row; sqlite-shipped,
 *                          postgresql-shipped, postgresql-redis-shipped, the store as `npm start` ships it,
 *                          WORKERS=auto: a worker per core behind one port, beside its one process)
 *   BENCH_COMPARE_CHECKOUT=<dir>         also another checkout of Gatehouse (say, the commit before a change,
 *                                        built with `GATEHOUSE_DIST_DIR=.next-bench next build` there) on
 *                                        SQLite and, with BENCH_DATABASE_URL, PostgreSQL: before and after in one run
 *
 * Traffic goes to 127.0.0.1 only, on ports the kernel picks (never 3000-3300).
 */
import { execSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { DIST_DIRS, DIST_DIR_VARIABLE } from '../lib/config/dist-dir.ts';
import { mintCodes, type Browser, type Target } from './flows.ts';
import { measureLimits, type Limits } from './limits.ts';
import { startFederation } from './federation.ts';
import { CODE_ROWS, JWT_ROWS, ROWS, runRow, SIGN_IN_ROWS, spareCodes, type Pools, type RowName, type Sample } from './load.ts';
import { profileMarkdown, summarizeProfile, type Window } from './profile.ts';
import { nextBin, peakRssMb, samplePeaks, type Server } from './servers.ts';
import { analyzeTables, checkTokens, postgresSchema, preparePools, startBaselineLike, startGatehouseOn, startNextStartOn, type Context } from './setup.ts';
import { cpuMeter } from './cpu.ts';
import { aggregate, report, type RunResult, type ServerSummary } from './table.ts';

// PostgreSQL has no key file (lib/db/keyring.ts): the servers this run starts and
// its own reads of their databases share one secrets key.
if (process.env.BENCH_DATABASE_URL) process.env.SECRETS_KEY ??= randomBytes(32).toString('base64');

const args = process.argv.slice(2);
const flag = (name: string) => args.includes(`--${name}`);
if (flag('help') || args.includes('-h')) {
  // The usage is this file's opening comment.
  const source = readFileSync(new URL(import.meta.url), 'utf8');
  console.log((/^\/\*\*\n([\s\S]*?)\*\//.exec(source)?.[1] ?? '').replace(/^ \* ?/gm, ''));
  process.exit(0);
}
const option = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const quick = flag('quick');
const profiling = flag('profile');
const seconds = Number(option('seconds') ?? (quick ? 1 : 3));
const rounds = Number(option('rounds') ?? (quick ? 1 : 2));
const connectionCounts = (option('connections') ?? '1,32').split(',').map(Number);
const rows = (option('rows')?.split(',') ?? [...ROWS]) as RowName[];
const STORES = [
  'sqlite',
  'postgresql',
  'postgresql-redis',
  'compare-sqlite',
  'compare-postgresql',
  'postgresql-redis-x2',
  'sqlite-shipped',
  'postgresql-shipped',
  'postgresql-redis-shipped',
];
// More server processes on 2 cores, and more minutes: only when asked for. The `-shipped` ones are their
// store as `npm start` ships (WORKERS unset: `auto`, a worker per core), beside the one process of the same store.
const OPT_IN_STORES = ['postgresql-redis-x2', 'sqlite-shipped', 'postgresql-shipped', 'postgresql-redis-shipped'];
const stores = option('stores')?.split(',') ?? STORES.filter((s) => !OPT_IN_STORES.includes(s));
for (const store of stores) if (!STORES.includes(store)) throw new Error(`unknown store ${store}; stores: ${STORES.join(', ')}`);
const wantsStore = (store: string) => stores.includes(store);
for (const row of rows) if (!ROWS.includes(row)) throw new Error(`unknown row ${row}; rows: ${ROWS.join(', ')}`);

const resultsDir = join('bench', 'results');
const work = mkdtempSync(join(tmpdir(), 'gatehouse-bench-'));
const profileDir = join(work, 'profiles');
const nodeArgs = profiling ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : undefined;
const log = (line: string) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}`);
const uptime = () => execSync('uptime').toString().trim();
const nowUs = () => Number(process.hrtime.bigint() / 1000n);

const servers: Server[] = [];
const cleanups: (() => Promise<void>)[] = [];
/** --profile: when each row loaded each server (profile timestamps share process.hrtime's clock). */
const windowsByRow: { row: RowName; server: string; windows: Window[] }[] = [];
const ctx: Context = { work, nodeArgs, servers, cleanups, log };

async function cleanup() {
  for (const server of servers) await server.stop().catch(() => undefined);
  for (const fn of cleanups.splice(0).reverse()) await fn().catch((e: Error) => console.error(`cleanup: ${e.message}`));
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void cleanup().finally(() => process.exit(130)));
}

function machine() {
  const gitCommit = spawnSync('git', ['rev-parse', 'HEAD']).stdout?.toString().trim();
  const dirty = spawnSync('git', ['status', '--porcelain', '--', 'lib', 'app', 'package.json', 'next.config.js', 'proxy.ts']).stdout?.toString().trim();
  return {
    cpu: cpus()[0]?.model,
    cores: cpus().length,
    memoryGb: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    platform: `${process.platform} ${execSync('uname -r').toString().trim()}`,
    commit: gitCommit,
    uncommittedChangesInLibOrApp: Boolean(dirty),
  };
}

async function main() {
  const startedAt = new Date();
  const uptimeBefore = uptime();
  log(`load before: ${uptimeBefore}`);
  // Its own build folder, which the servers below inherit from this environment: never `.next`,
  // which a server started by `npm start` from this checkout may be reading (lib/config/dist-dir.ts).
  process.env[DIST_DIR_VARIABLE] = DIST_DIRS.bench;
  if (!flag('skip-build')) {
    log(`next build (into ${DIST_DIRS.bench}) ...`);
    const build = spawnSync(process.execPath, [nextBin, 'build'], { stdio: 'inherit', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
    if (build.status !== 0) throw new Error('next build failed');
  } else if (!existsSync(join(DIST_DIRS.bench, 'BUILD_ID'))) {
    throw new Error(`--skip-build needs an existing build (${DIST_DIRS.bench}/BUILD_ID)`);
  }

  const { BENCH_DATABASE_URL: postgres, BENCH_REDIS_URL: redis } = process.env;
  if (!postgres) log('BENCH_DATABASE_URL is not set: Gatehouse runs on SQLite only');
  else if (!redis) log('BENCH_REDIS_URL is not set: Gatehouse on PostgreSQL runs without Redis only');
  const gatehouses = [];
  if (wantsStore('sqlite')) gatehouses.push(await startGatehouseOn(ctx, 'gatehouse-sqlite', `file:${join(work, 'gatehouse.db')}`));
  if (wantsStore('sqlite-shipped')) {
    gatehouses.push(await startGatehouseOn(ctx, 'gatehouse-sqlite-shipped', `file:${join(work, 'shipped.db')}`, { workers: 'auto' }));
  }
  if (postgres && wantsStore('postgresql')) gatehouses.push(await startGatehouseOn(ctx, 'gatehouse-postgresql', await postgresSchema(ctx, postgres)));
  if (postgres && wantsStore('postgresql-shipped')) {
    gatehouses.push(await startGatehouseOn(ctx, 'gatehouse-postgresql-shipped', await postgresSchema(ctx, postgres), { workers: 'auto' }));
  }
  if (postgres && redis && wantsStore('postgresql-redis')) {
    gatehouses.push(await startGatehouseOn(ctx, 'gatehouse-postgresql-redis', await postgresSchema(ctx, postgres), { redisUrl: redis }));
  }
  if (postgres && redis && wantsStore('postgresql-redis-shipped')) {
    gatehouses.push(
      await startGatehouseOn(ctx, 'gatehouse-postgresql-redis-shipped', await postgresSchema(ctx, postgres), { redisUrl: redis, workers: 'auto' }),
    );
  }
  if (postgres && redis && wantsStore('postgresql-redis-x2')) {
    gatehouses.push(await startGatehouseOn(ctx, 'gatehouse-postgresql-redis-x2', await postgresSchema(ctx, postgres), { redisUrl: redis, instances: 2 }));
  }
  const compare = process.env.BENCH_COMPARE_CHECKOUT;
  if (compare && wantsStore('compare-sqlite')) {
    gatehouses.push(await startGatehouseOn(ctx, 'gatehouse-compare-sqlite', `file:${join(work, 'compare.db')}`, { cwd: compare }));
  }
  if (compare && postgres && wantsStore('compare-postgresql')) {
    gatehouses.push(await startGatehouseOn(ctx, 'gatehouse-compare-postgresql', await postgresSchema(ctx, postgres), { cwd: compare }));
  }
  if (gatehouses.length === 0) throw new Error(`--stores=${option('stores')}: none of these is set up (BENCH_DATABASE_URL, BENCH_REDIS_URL)`);
  const base = await startBaselineLike(ctx, gatehouses[0]);
  // Federated sign-in: Gatehouse only (the baseline has no connections); not a compared checkout, which may
  // predate connections, nor several instances (the pages send the browser to the first).
  const federated = gatehouses.filter((g) => g.replicas.length === 0 && !g.target.name.startsWith('gatehouse-compare-'));
  if (rows.includes('federated-sign-in') && federated.length > 0) await startFederation(ctx, federated);
  const nextStart = flag('next-start') ? await startNextStartOn(ctx, gatehouses[0]) : undefined;
  const allTargets = [...gatehouses.map((g) => g.target), ...(nextStart ? [nextStart.target] : []), base.target];
  const sampler = setInterval(() => servers.forEach(samplePeaks), 1000);
  cleanups.push(async () => clearInterval(sampler));

  log('signing in on every server and preparing tokens ...');
  const prepared = new Map<string, { browsers: Browser[]; pools: Pools }>();
  for (const t of allTargets) {
    if (t.name === 'gatehouse-next-start') continue;
    prepared.set(t.name, await preparePools(t));
  }
  if (nextStart) {
    // Same database: codes minted through Gatehouse's pages redeem under next start, the same tokens are valid there.
    const { browsers, pools } = prepared.get(gatehouses[0].target.name)!;
    prepared.set('gatehouse-next-start', {
      browsers,
      pools: { ...pools, codes: [], refreshTokens: [...pools.refreshTokens], accessTokens: [...pools.accessTokens] },
    });
    await checkTokens(nextStart.target, pools.accessTokens[0]);
  }

  log("measuring this machine's limits (argon2id, JWT signing) ...");
  const limits: Limits = await measureLimits({
    passwordHash: base.passwordHash,
    password: base.target.user.password,
    jwks: base.jwks,
    ms: quick ? 1000 : 2500,
  });
  log(
    `argon2id ${limits.argon2id.verificationsPerSecond}/s; ${Object.entries(limits.jwt)
      .map(([a, r]) => `${a} ${r.signaturesPerSecond}/s`)
      .join(', ')}`,
  );

  const samples: Sample[] = [];
  const windows = new Map<string, Window[]>();
  /** Last measured token rate per server and connection count: how many codes the next run needs. */
  const tokenRate = new Map<string, number>();
  const codesFor = async (row: RowName, t: Target, connections: number, secs: number) => {
    const { browsers, pools } = prepared.get(t.name)!;
    const rate = tokenRate.get(`${row}/${t.name}/${connections}`) ?? tokenRate.get(`${row}/${t.name}/warm`) ?? 200;
    const count = Math.min(20_000, Math.max(30, 2 * connections, Math.ceil(rate * secs * 1.1))) + spareCodes(connections);
    pools.codes = await mintCodes(browsers, count, 8, row === 'token_jwt');
  };
  const meter = cpuMeter(process.env.BENCH_DATABASE_URL);
  cleanups.push(() => meter.close());
  const measure = async (row: RowName, t: Target, connections: number, secs: number, round: number) => {
    if (CODE_ROWS.includes(row)) await codesFor(row, t, connections, secs);
    // Every instance of the configuration (they share its name): CPU summed over all of them.
    const pids = servers.filter((s) => s.name === t.name && s.child.pid !== undefined).map((s) => s.child.pid!);
    const stores = t.name !== 'baseline';
    const before = pids.length ? await meter.snapshot(pids, stores) : undefined;
    const startUs = nowUs();
    const sample = await runRow({ row, target: t, pools: prepared.get(t.name)!.pools, connections, seconds: secs, round });
    windows.set(t.name, [...(windows.get(t.name) ?? []), { startUs, endUs: nowUs() }]);
    if (before) sample.cpu = await meter.spent(pids, before, stores);
    servers.forEach(samplePeaks);
    return sample;
  };

  for (const row of rows) {
    await analyzeTables(gatehouses.map((g) => g.databaseUrl));
    // Their pages send the browser to the issuer, i.e. another server (next start's: Gatehouse; a second
    // instance's: the first), so a sign-in would not load them evenly: no sign-in row there.
    const targets = allTargets.filter((t) =>
      row === 'federated-sign-in'
        ? t.federation !== undefined && t.name !== 'gatehouse-next-start'
        : JWT_ROWS[row]
          ? t.api !== undefined
          : row !== 'sign-in' || (t.name !== 'gatehouse-next-start' && !t.bases),
    );
    // Warm-up, not recorded: JIT, connection pools, caches.
    for (const t of targets) {
      const warm = await measure(row, t, SIGN_IN_ROWS.includes(row) ? 4 : 8, quick ? 0.5 : 1, 0);
      if (CODE_ROWS.includes(row)) tokenRate.set(`${row}/${t.name}/warm`, warm.rps);
    }
    windows.clear();
    for (const connections of connectionCounts) {
      for (let round = 1; round <= rounds; round++) {
        for (const t of targets) {
          const s = await measure(row, t, connections, seconds, round);
          if (CODE_ROWS.includes(row)) tokenRate.set(`${row}/${t.name}/${connections}`, s.rps);
          samples.push(s);
          const failures = s.failed ? `, ${s.failed} failed ${JSON.stringify(s.statuses)}` : '';
          const cpu = s.cpu && s.ok ? `, CPU/request ${Math.round(((s.cpu.server + s.cpu.database + s.cpu.redis) * 1000) / s.ok)} µs` : '';
          log(
            `${row.padEnd(18)} c=${String(connections).padEnd(2)} r${round} ${t.name.padEnd(20)} ${String(s.rps).padStart(7)}/s p50 ${s.p50} ms p99 ${s.p99} ms${failures}${cpu} (load ${s.load1})`,
          );
        }
      }
    }
    if (profiling) for (const [name, w] of windows) windowsByRow.push({ row, server: name, windows: w });
  }

  servers.forEach(samplePeaks);
  const summaries: ServerSummary[] = [
    ...gatehouses.map((g) => ({
      name: g.target.name,
      peakRssMb: peakRssMb(g.server, ...g.replicas),
      startMs: g.server.startMs,
      restartMs: g.restartMs,
      ...(g.replicas.length > 0 && { instances: 1 + g.replicas.length }),
      ...(g.workers && { workers: g.workers }),
    })),
    ...(nextStart ? [{ name: 'gatehouse-next-start', peakRssMb: peakRssMb(nextStart.server), startMs: nextStart.server.startMs }] : []),
    { name: 'baseline', peakRssMb: peakRssMb(base.server), startMs: base.server.startMs },
  ];
  const pids = new Map(servers.map((s) => [s.child.pid, s.name]));
  await cleanup();

  const uptimeAfter = uptime();
  const finishedAt = new Date();
  // Smoke runs, row subsets and profiling runs go to results/partial/ (git-ignored): latest.md stays the last full run.
  // A --stores that adds an opt-in configuration to every default one (compare-* need a checkout) is a full run.
  const leavesOutStore = STORES.some((s) => !OPT_IN_STORES.includes(s) && !s.startsWith('compare-') && !wantsStore(s));
  const partial =
    quick || profiling || rows.length < ROWS.length || leavesOutStore || ['seconds', 'rounds', 'connections'].some((o) => option(o) !== undefined);
  const outDir = partial ? join(resultsDir, 'partial') : resultsDir;
  mkdirSync(outDir, { recursive: true });
  const stamp = startedAt.toISOString().replace(/[:.]/g, '-');
  const result: RunResult = {
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    seconds: Math.round((finishedAt.getTime() - startedAt.getTime()) / 1000),
    machine: machine(),
    load: { before: uptimeBefore, after: uptimeAfter },
    options: {
      quick,
      seconds,
      rounds,
      connections: connectionCounts,
      rows,
      profiling,
      nextStart: Boolean(nextStart),
      postgres: Boolean(process.env.BENCH_DATABASE_URL),
      redis: Boolean(process.env.BENCH_DATABASE_URL && process.env.BENCH_REDIS_URL),
    },
    servers: summaries,
    limits,
    table: aggregate(samples),
    samples,
  };
  writeFileSync(join(outDir, `${stamp}.json`), `${JSON.stringify(result, null, 2)}\n`);
  const text = report(result);
  console.log(`\n${text}\n`);
  writeFileSync(join(outDir, 'latest.md'), `# Latest benchmark\n\n${text}\n\nRaw numbers: [${stamp}.json](${stamp}.json)\n`);
  log(`wrote ${join(outDir, `${stamp}.json`)} and latest.md`);

  if (profiling) writeProfiles(pids, stamp);
  rmSync(work, { recursive: true, force: true });
}

/** One markdown summary per profiled server process, over its load windows. */
function writeProfiles(pids: Map<number | undefined, string>, stamp: string) {
  if (!existsSync(profileDir)) return log('no profiles were written');
  const parts: string[] = [`# CPU profiles, ${stamp}`, '', `rows: ${rows.join(', ')}; connections ${connectionCounts.join(', ')}`, ''];
  for (const file of readdirSync(profileDir).filter((f) => f.endsWith('.cpuprofile'))) {
    const pid = Number(file.split('.')[3]); // CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile
    const name = pids.get(pid);
    if (!name) continue;
    const profile = JSON.parse(readFileSync(join(profileDir, file), 'utf8'));
    const summaries = windowsByRow.filter((w) => w.server === name).map(({ row, windows }) => ({ row, summary: summarizeProfile(profile, windows) }));
    // Threads that only idled (tsx's module-loader thread in the baseline) say nothing.
    if (summaries.every(({ summary }) => summary.idlePct >= 99)) continue;
    for (const { row, summary } of summaries) parts.push(profileMarkdown(`${row} on ${name} (pid ${pid})`, summary), '');
    // The raw profile stays beside the results for Chrome DevTools (results/partial/ is git-ignored);
    // its pid in the name, as the instances of one configuration share that name.
    copyFileSync(join(profileDir, file), join(resultsDir, 'partial', `${stamp}-${name}-${pid}.cpuprofile`));
  }
  const out = join(resultsDir, `profile-${stamp}.md`);
  writeFileSync(out, parts.join('\n'));
  log(`wrote ${out}`);
}

main().catch(async (error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  await cleanup();
  console.error(`work files kept in ${work}`);
  process.exit(1);
});
