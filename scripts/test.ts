/**
 * `npm test`: build, unit, protocol and browser suites in that order (cheapest
 * failures first; docs/testing.md says what each runs against), with one summary line at the end.
 * Options: --skip-build, --only=unit|protocol|browser (repeatable), --files=<part of a path>
 * (repeatable: only the test files and Playwright specs whose path contains one of them).
 * With TEST_REDIS_URL (and TEST_DATABASE_URL) the protocol tests run once more on PostgreSQL
 * with REDIS_URL (short-lived artifacts in Redis).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { startMailSink, type MailSink } from '../e2e/support/mail-sink.ts';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve as resolvePath } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import pg from 'pg';
import { DIST_DIRS, DIST_DIR_VARIABLE } from '../lib/config/dist-dir.ts';
import { freePort, serverCommand, type Mount } from '../e2e/support/server.ts';

const args = process.argv.slice(2);
const only = args.filter((a) => a.startsWith('--only=')).map((a) => a.slice('--only='.length));
const wants = (suite: string) => only.length === 0 || only.includes(suite);
const fileParts = args.filter((a) => a.startsWith('--files=')).map((a) => a.slice('--files='.length));
/** The files of a suite that --files picks (all without it). */
const picked = (files: string[]) => (fileParts.length === 0 ? files : files.filter((path) => fileParts.some((part) => path.includes(part))));
// The test files, and the processes they start from TypeScript (the CLI, scripts of their own), run on Node's own
// type stripping, not tsx: half the CPU of loading the same modules (measured: lib/db/database.ts 0.6 s against
// 1.5 s of user + system time), paid by every test process. Node strips types by default from 22.18 and 23.6; an
// older 22 is told to. (tsconfig.json's erasableSyntaxOnly keeps the sources within what stripping can run.)
if (!process.features.typescript) process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} --experimental-strip-types`.trim();
// Every process of the run (about 190 protocol test processes, the unit files', every server and instance, each
// loading the same modules and Next's server bundles) keeps V8's compiled code in one cache (Node's module compile
// cache, checked against each file's contents), so only the first to load a module compiles it.
process.env.NODE_COMPILE_CACHE ??= resolvePath('node_modules', '.cache', 'node-compile-cache');
/**
 * The run builds into its own folder and starts every server on it (scripts/server.mjs, `next start`
 * and the instances the protocol tests start, which inherit this environment), never into `.next`,
 * which a server started by `npm start` from this checkout may be reading (lib/config/dist-dir.ts).
 */
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1', [DIST_DIR_VARIABLE]: DIST_DIRS.test };

/**
 * For the servers under test (and the instances protocol tests start beside
 * them): every test connects from 127.0.0.1, so the per-address limits on
 * failed sign-ins (lib/platform/throttle.ts) would add up the whole run's
 * deliberate failures and refuse the tests that follow. They are lifted there;
 * the unit tests of those limits keep the defaults. The per-account and
 * per-client limits keep theirs everywhere.
 */
const serverLimits = { THROTTLE_SOURCE_FREE_FAILURES: '99999', THROTTLE_SOURCE_HOURLY_CAP: '100000', THROTTLE_SIGN_UP_HOURLY_CAP: '100000' };
/**
 * Sign-up is off by default; the servers under test offer it, for the fixtures' domain only
 * (e2e/support/fixtures.ts makes every address @example.test), so the browser tests can sign up
 * and the protocol tests can check the domain limit. e2e/protocol/sign-up.test.ts starts an
 * instance of its own for the default (off) and the per-address cap. Trusted devices and the
 * account chooser (off by default too) are on, so the browser tests can use them.
 */
const signUpSettings = { SIGN_UP: 'on', SIGN_UP_EMAIL_DOMAINS: 'example.test', TRUSTED_DEVICE_DAYS: '30', ACCOUNT_CHOOSER: 'on' };
/**
 * The browser suite's server caps a throttle's wait at a second (the doubling waits, 1 + 2 + 4 + 8 + 16 s
 * before an account locks, are the protocol and unit tests' to prove): e2e/browser/lockout.spec.ts waits out
 * each wait on its way to the lock in a second instead of half a minute. The lock itself keeps its length.
 */
/**
 * The protocol suite's servers serve SCIM (e2e/protocol/scim.test.ts): off by default everywhere else, as in
 * every deployment until its operator turns it on.
 */
const protocolSettings = { SCIM: 'on' };
const browserSettings = {
  THROTTLE_MAX_DELAY_SECONDS: '1',
  // The device grant's pages (e2e/browser/device-verification.spec.ts); the protocol suite's server keeps it off,
  // as every deployment has it until its operator turns it on (e2e/protocol/protocol-features.test.ts).
  DEVICE_FLOW: 'on',
};
const totals = { passed: 0, failed: 0, skipped: 0 };
/** Every failed test, listed again above the summary line: CI keeps only the output's tail. */
const failures: string[] = [];
/** Browser tests that failed and then passed on CI's one retry (playwright.config.ts), listed too. */
const flaky: string[] = [];
const started = Date.now();
/** When, since the run began: each part's header and end say it, so a run's output shows which lane its last minutes waited for. */
const at = () => `at ${Math.round((Date.now() - started) / 1000)} s`;

const nextBin = join('node_modules', 'next', 'dist', 'bin', 'next');

/** Test files (or, with another suffix, sources) under the given folders (Node 20 has no fs.globSync). */
function testFiles(dirs: string[], suffix = '.test.ts'): string[] {
  const found: string[] = [];
  const visit = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory() && entry.name !== 'node_modules' && entry.name !== 'generated') visit(path);
      else if (entry.isFile() && entry.name.endsWith(suffix)) found.push(path);
    }
  };
  dirs.forEach(visit);
  return found.sort();
}

/**
 * Adds a node:test run's counts, read from the events scripts/test-counts-reporter.mjs wrote (a run
 * that wrote none, a crash before any test, counts as one failure); returns the seconds per file.
 */
function tallyNode(countsFile: string, out: Out): Record<string, number> {
  try {
    const report = JSON.parse(readFileSync(countsFile, 'utf8')) as {
      counts: Record<'passed' | 'failed' | 'cancelled' | 'skipped' | 'todo', number>;
      fileSeconds: Record<string, number>;
      failures?: { file?: string; name: string; error: string }[];
    };
    for (const failure of report.failures ?? [])
      failures.push(`${failure.file ? relative(process.cwd(), failure.file) : '?'} › ${failure.name}: ${failure.error}`);
    totals.passed += report.counts.passed;
    totals.failed += report.counts.failed + report.counts.cancelled;
    totals.skipped += report.counts.skipped + report.counts.todo;
    return report.fileSeconds;
  } catch {
    out(`✖ node:test reported no counts (${countsFile}): counted as a failure\n`);
    totals.failed += 1;
    return {};
  } finally {
    rmSync(countsFile, { force: true });
  }
}

/**
 * Adds a Playwright run's counts from its JSON report (playwright.config.ts writes one where
 * GATEHOUSE_TEST_PLAYWRIGHT_JSON says): a flaky test passed on a retry; a run that wrote no report,
 * or exited non-zero with no failed test in it (interrupted, crashed), counts as one failure.
 */
function tallyPlaywright(reportFile: string, code: number, out: Out) {
  try {
    const report = JSON.parse(readFileSync(reportFile, 'utf8')) as PlaywrightReport;
    const { stats } = report;
    playwrightDurations(report, out);
    playwrightFailures(report);
    totals.passed += stats.expected + stats.flaky;
    totals.failed += stats.unexpected;
    totals.skipped += stats.skipped;
    if (code !== 0 && stats.unexpected === 0) {
      out(`✖ Playwright exited ${code} with no failed test reported: counted as a failure\n`);
      totals.failed += 1;
    }
  } catch {
    out(`✖ Playwright wrote no report (${reportFile}): counted as a failure\n`);
    totals.failed += 1;
  }
}

interface PlaywrightSuite {
  title: string;
  file?: string;
  specs?: {
    title: string;
    tests: { status?: string; results: { duration: number; error?: { message?: string } }[] }[];
  }[];
  suites?: PlaywrightSuite[];
}
interface PlaywrightReport {
  stats: Record<'expected' | 'unexpected' | 'flaky' | 'skipped', number>;
  suites: PlaywrightSuite[];
}

/** The browser tests that failed on every try, with the last try's first error lines, and those that passed on a retry. */
function playwrightFailures(report: PlaywrightReport) {
  const visit = (suite: PlaywrightSuite, file: string, path: string[]) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests) {
        if (test.status === 'flaky') flaky.push(`${file} › ${[...path, spec.title].join(' › ')}`);
        if (test.status !== 'unexpected') continue;
        const error = stripVTControlCharacters(test.results.at(-1)?.error?.message ?? '');
        const lines = error.split('\n').slice(0, 3).join(' ').slice(0, 300);
        failures.push(`${file} › ${[...path, spec.title].join(' › ')}: ${lines}`);
      }
    }
    for (const child of suite.suites ?? []) visit(child, file, [...path, child.title]);
  };
  for (const suite of report.suites) visit(suite, suite.file ?? suite.title, []);
}

/**
 * Where a browser run's time went: the specs' own seconds per file (summed over both workers, so more than
 * the wall time) and the slowest tests, from the JSON report's durations.
 */
function playwrightDurations(report: PlaywrightReport, out: Out) {
  const fileSeconds: Record<string, number> = {};
  const tests: [string, number][] = [];
  const visit = (suite: PlaywrightSuite, file: string, path: string[]) => {
    for (const spec of suite.specs ?? []) {
      const seconds = spec.tests.flatMap((test) => test.results).reduce((sum, result) => sum + result.duration / 1000, 0);
      fileSeconds[file] = (fileSeconds[file] ?? 0) + seconds;
      tests.push([`${file} › ${[...path, spec.title].join(' › ')}`, seconds]);
    }
    for (const child of suite.suites ?? []) visit(child, file, [...path, child.title]);
  };
  for (const suite of report.suites) visit(suite, suite.file ?? suite.title, []);
  const top = (entries: [string, number][], count: number) =>
    entries
      .sort(([, a], [, b]) => b - a)
      .slice(0, count)
      .map(([name, seconds]) => `  ${seconds.toFixed(1).padStart(6)} s  ${name}`)
      .join('\n');
  const total = Object.values(fileSeconds).reduce((sum, seconds) => sum + seconds, 0);
  if (tests.length === 0) return;
  out(`spec files by their tests' own time (${total.toFixed(0)} s in all, over the workers):\n${top(Object.entries(fileSeconds), 30)}\n`);
  out(`slowest tests:\n${top(tests, 10)}\n`);
}

/** Where a part of the run writes what it has to say: the terminal, or a buffer printed when that part ends. */
type Out = (text: string) => void;
const stdout: Out = (text) => void process.stdout.write(text);

/**
 * Runs a command, echoing its output (to `out`), and returns the output and exit code.
 * `hideCoverageTable` leaves the spec reporter's coverage table out of the echo (not of the
 * output): Node 20 cannot restrict it to our sources (no --test-coverage-include before Node 22),
 * so it lists every test file too; coverageSummary prints the part that matters instead.
 */
function run(
  command: string,
  commandArgs: string[],
  extraEnv: Record<string, string> = {},
  { hideCoverageTable = false, out = stdout }: { hideCoverageTable?: boolean; out?: Out } = {},
): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, commandArgs, { env: { ...env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let pending = '';
    let inTable = false;
    const show = (text: string) => {
      if (!hideCoverageTable) return out(text);
      pending += text;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        if (/^ℹ start of coverage report/.test(line)) inTable = true;
        if (!inTable) out(`${line}\n`);
        if (/^ℹ end of coverage report/.test(line)) inTable = false;
      }
    };
    const echo = (chunk: Buffer) => {
      output += chunk.toString();
      show(chunk.toString());
    };
    child.stdout.on('data', echo);
    child.stderr.on('data', echo);
    child.on('close', (code) => {
      if (pending && !inTable) out(pending);
      resolve({ code: code ?? 1, output });
    });
  });
}

const lcovFile = join('coverage', 'lcov.info');

/**
 * Runs node:test on `files`, `concurrency` files at a time (each in a process of its own), echoing the
 * spec reporter and counting from the runner's events (scripts/test-counts-reporter.mjs). Returns the
 * seconds each file's tests took.
 */
async function nodeTests(
  label: string,
  files: string[],
  extraEnv: Record<string, string> = {},
  { coverage = false, concurrency = 1, out = stdout }: { coverage?: boolean; concurrency?: number; out?: Out } = {},
): Promise<Record<string, number>> {
  if (files.length === 0) return {};
  out(`\n=== ${label} (${files.length} files${concurrency > 1 ? `, ${concurrency} at a time` : ''}; ${at()}) ===\n`);
  const countsFile = join(mkdtempSync(join(tmpdir(), 'gatehouse-counts-')), 'counts.json');
  const reporters = [
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    `--test-reporter=${resolvePath('scripts', 'test-counts-reporter.mjs')}`,
    `--test-reporter-destination=${countsFile}`,
  ];
  if (coverage) {
    mkdirSync('coverage', { recursive: true });
    rmSync(lcovFile, { force: true });
    reporters.push('--experimental-test-coverage', '--test-reporter=lcov', `--test-reporter-destination=${lcovFile}`);
  }
  const failedBefore = totals.failed;
  const { code, output } = await run(
    process.execPath,
    ['--test', ...reporters, '--test-timeout=120000', `--test-concurrency=${concurrency}`, ...files],
    extraEnv,
    { hideCoverageTable: coverage, out },
  );
  const fileSeconds = tallyNode(countsFile, out);
  rmSync(dirname(countsFile), { recursive: true, force: true });
  // Node exits 1 when it cannot write the coverage report (it can fail to merge it when a source
  // changes during the run): coverage is not a gate, so that alone fails nothing.
  const coverageOnly = coverage && /^ℹ Warning: Could not report code coverage/m.test(output);
  if (code !== 0 && totals.failed === failedBefore) {
    if (coverageOnly) out('line coverage: Node could not report it for this run (the tests themselves passed)\n');
    else {
      out(`✖ node:test exited ${code} with no failed test reported: counted as a failure\n`);
      totals.failed += 1; // a crash that reported no test
    }
  }
  if (coverage) coverageSummary(['lib', 'cli']);
  return fileSeconds;
}

/**
 * Line coverage of the sources under `dirs` (test files and lib/generated left out), read from
 * the lcov report. A source no unit test loads counts as 0 % of its lines: the protocol and
 * browser suites run it in a server, where this report does not look.
 */
function coverageSummary(dirs: string[]) {
  if (!existsSync(lcovFile)) return console.log('\nno coverage report was written');
  const covered = new Map<string, { found: number; hit: number }>();
  let file = '';
  for (const line of readFileSync(lcovFile, 'utf8').split('\n')) {
    if (line.startsWith('SF:')) file = relative(process.cwd(), resolvePath(line.slice(3)));
    const entry = covered.get(file) ?? { found: 0, hit: 0 };
    if (line.startsWith('LF:')) covered.set(file, { ...entry, found: Number(line.slice(3)) });
    if (line.startsWith('LH:')) covered.set(file, { ...entry, hit: Number(line.slice(3)) });
  }
  const sources = testFiles(dirs, '.ts').filter((path) => !path.endsWith('.test.ts'));
  const rows = sources.map((path) => {
    const lines = covered.get(path);
    return lines ? { path, ...lines, loaded: true } : { path, found: readFileSync(path, 'utf8').split('\n').length - 1, hit: 0, loaded: false };
  });
  const percent = (hit: number, found: number) => (found === 0 ? 100 : (100 * hit) / found).toFixed(1).padStart(5);
  console.log(`\n=== line coverage of ${dirs.join('/ and ')}/ by these tests (per line: ${lcovFile}) ===`);
  for (const row of rows) {
    console.log(`${percent(row.hit, row.found)} %  ${`${row.hit}/${row.found}`.padStart(9)}  ${row.path}${row.loaded ? '' : '  (not loaded)'}`);
  }
  const hit = rows.reduce((sum, row) => sum + row.hit, 0);
  const found = rows.reduce((sum, row) => sum + row.found, 0);
  const unloaded = rows.filter((row) => !row.loaded).length;
  console.log(`${percent(hit, found)} %  ${`${hit}/${found}`.padStart(9)}  all ${rows.length} files (${unloaded} not loaded by any of these tests)`);
}

/**
 * The secrets key of the PostgreSQL runs (it has no key file; lib/db/keyring.ts),
 * one per test run. The SQLite runs use the key file, as `npm start` does.
 */
const postgresSecretsKey = process.env.SECRETS_KEY ?? randomBytes(32).toString('base64');
const secretsEnv = (databaseUrl: string): Record<string, string> => (databaseUrl.startsWith('file:') ? {} : { SECRETS_KEY: postgresSecretsKey });

/** The run's SMTP server (e2e/support/mail-sink.ts): every server under test mails to it, the tests read it back. */
let mailSink: MailSink | undefined;

/**
 * Each server's whole output (its log, lib/ops/log.ts) goes to a file here, which the
 * protocol tests read (GATEHOUSE_TEST_LOG_FILE; e2e/protocol/log-secrets.test.ts).
 * Removed at the end of a run that failed nothing; kept to read otherwise.
 */
let logDir: string | undefined;

/** Each server also answers /metrics on its own port for this token (METRICS_TOKEN), which e2e/protocol/metrics.test.ts presents. */
const metricsToken = randomBytes(32).toString('hex');

async function startServer(
  databaseUrl: string,
  mount: Mount,
  /** Settings of this server's own (REDIS_URL, the browser suite's short throttle waits). */
  ownEnv: Record<string, string> = {},
  out: Out = stdout,
): Promise<{ url: string; metricsUrl: string; logFile: string; stop: () => Promise<void> }> {
  const port = await freePort();
  logDir ??= mkdtempSync(join(tmpdir(), 'gatehouse-logs-'));
  const logFile = join(logDir, `${mount}-${port}.log`);
  const logStream = createWriteStream(logFile);
  const url = `http://localhost:${port}`;
  // Its own metrics server (lib/ops/metrics-server.ts), which e2e/protocol/metrics.test.ts scrapes.
  const metricsPort = await freePort();
  const child: ChildProcess = spawn(process.execPath, serverCommand(mount, port), {
    env: {
      ...env,
      ...serverLimits,
      ...signUpSettings,
      ...secretsEnv(databaseUrl),
      DATABASE_URL: databaseUrl,
      ISSUER: url,
      ADMIN_PASSWORD: randomBytes(18).toString('base64url'),
      METRICS_PORT: String(metricsPort),
      METRICS_HOST: '127.0.0.1',
      METRICS_TOKEN: metricsToken,
      // One process, as the suite has always measured it: its timings, its log and what the files count on
      // its metrics stay one process's. Workers are e2e/protocol/workers.test.ts's to prove.
      WORKERS: '1',
      ...(mailSink ? { SMTP_URL: mailSink.smtpUrl } : {}),
      ...ownEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const keep = (chunk: Buffer) => {
    log += chunk;
    logStream.write(chunk);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  child.once('exit', () => logStream.end());
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      const response = await fetch(`${url}/.well-known/openid-configuration`);
      if (response.ok) {
        return {
          url,
          metricsUrl: `http://127.0.0.1:${metricsPort}/metrics`,
          logFile,
          stop: async () => {
            child.kill('SIGTERM');
            await new Promise((r) => child.once('exit', r));
            if (/server_error/.test(log)) out(`--- server log (server errors seen) ---\n${log}\n`);
          },
        };
      }
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill('SIGKILL');
  throw new Error(`the server did not start:\n${log}`);
}

async function withPostgresSchema<T>(base: string, fn: (url: string) => Promise<T>): Promise<T> {
  const schema = `gh_test_${randomBytes(4).toString('hex')}`;
  const url = new URL(base);
  url.searchParams.set('schema', schema);
  try {
    return await fn(url.toString());
  } finally {
    const client = new pg.Client({ connectionString: base });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  }
}

/**
 * The servers the protocol suite runs against: a store and a mount each. `sqlite` is npm start's
 * server (scripts/server.mjs) on SQLite, `next` plain `next start` on SQLite, `postgres` npm start's
 * server on PostgreSQL (TEST_DATABASE_URL), `redis` the same with REDIS_URL (TEST_REDIS_URL).
 */
type Setup = 'sqlite' | 'next' | 'postgres' | 'redis';

/**
 * Where a protocol test file runs, as its `// runs-on:` line near the top says: only where what it
 * proves can differ. `once`: neither the store nor the mount changes it; `mounts`: the mount may, the
 * store cannot; `stores`: the store (and Redis) may, the mount cannot; `databases`: the database may,
 * and Redis cannot: what the file proves is kept in the database (people, clients, keys, the audit log,
 * the webhooks' outbox, sealed rows, the schema), and what Redis holds under REDIS_URL (interactions,
 * codes, access tokens, the throttle's counters: lib/db/artifacts.ts REDIS_MODELS) it only passes
 * through on the way, as every `stores` and `everywhere` file does on the Redis run; `everywhere` (also
 * a file with no such line, so a new file runs in every setup until it says otherwise).
 */
const RUNS_ON: Record<string, Setup[]> = {
  once: ['sqlite'],
  mounts: ['sqlite', 'next'],
  databases: ['sqlite', 'postgres'],
  stores: ['sqlite', 'postgres', 'redis'],
  everywhere: ['sqlite', 'next', 'postgres', 'redis'],
};

/**
 * How many protocol test files share a server at once. A file with an `// alone: <why>` line
 * runs before them, the only one on its server: it counts what the server did, times it, or
 * reads all it stored.
 */
const PROTOCOL_CONCURRENCY = Number(process.env.GATEHOUSE_TEST_CONCURRENCY ?? 3);

/**
 * How many unit test files run at once (each in a process of its own, on a database, schema or Redis
 * prefix of its own). Two: one file at a time left a core idle once the build beside them ended (most
 * files are one process; the CLI's spawn one process per command), and the unit run, not the build,
 * is what the lanes wait for.
 */
const UNIT_CONCURRENCY = Number(process.env.GATEHOUSE_TEST_UNIT_CONCURRENCY ?? 2);

interface ProtocolFile {
  path: string;
  setups: Setup[];
  alone: boolean;
}

/** The protocol test files --files picks, with their declarations; a `runs-on:` line that names no kind stops the run. */
function protocolFiles(): ProtocolFile[] {
  return picked(testFiles(['e2e/protocol'])).map((path) => {
    const head = readFileSync(path, 'utf8').split('\n').slice(0, 10).join('\n');
    const declared = /^\/\/ runs-on: *(\S*)/m.exec(head)?.[1] ?? 'everywhere';
    const setups = RUNS_ON[declared];
    if (!setups) throw new Error(`${path}: "// runs-on: ${declared}" is none of ${Object.keys(RUNS_ON).join(', ')}`);
    return { path, setups, alone: /^\/\/ alone: *\S/m.test(head) };
  });
}

/** The slowest files of a unit or protocol run, so a run says where its time went. */
function slowest(fileSeconds: Record<string, number>, out: Out) {
  const top = Object.entries(fileSeconds)
    .sort(([, a], [, b]) => b - a)
    .slice(0, 5)
    .map(([file, seconds]) => `${relative(process.cwd(), file)} ${seconds.toFixed(1)} s`);
  if (top.length > 0) out(`slowest files (their tests' own time): ${top.join(', ')}\n`);
}

/**
 * One server of the suite (`setup`), and on it the protocol files declared for that setup (each `alone`
 * one in turn, then those that may share it concurrently) or, with `browser`, the Playwright suite.
 */
async function suiteRun(setup: Setup, databaseUrl: string, { browser = false, out = stdout }: { browser?: boolean; out?: Out } = {}) {
  const mount: Mount = setup === 'next' ? 'next' : 'server';
  const redisUrl = setup === 'redis' ? process.env.TEST_REDIS_URL : undefined;
  // The tests that make a second instance or a throttle of their own read REDIS_URL too.
  const redisEnv: Record<string, string> = redisUrl ? { REDIS_URL: redisUrl } : {};
  const files = browser ? [] : protocolFiles().filter((file) => file.setups.includes(setup));
  if (!browser && files.length === 0) return;
  const server = await startServer(databaseUrl, mount, browser ? { ...redisEnv, ...browserSettings } : { ...redisEnv, ...protocolSettings }, out);
  const serverEnv = {
    ...redisEnv,
    ...serverLimits,
    ...secretsEnv(databaseUrl),
    GATEHOUSE_TEST_URL: server.url,
    GATEHOUSE_TEST_DATABASE_URL: databaseUrl,
    GATEHOUSE_TEST_MOUNT: mount,
    GATEHOUSE_TEST_METRICS_URL: server.metricsUrl,
    GATEHOUSE_TEST_LOG_FILE: server.logFile,
    GATEHOUSE_TEST_METRICS_TOKEN: metricsToken,
    ...(mailSink ? { GATEHOUSE_TEST_MAIL_URL: mailSink.apiUrl, GATEHOUSE_TEST_SMTP_URL: mailSink.smtpUrl } : {}),
  };
  const label = `${setup === 'sqlite' || setup === 'next' ? 'SQLite' : 'PostgreSQL'}${redisUrl ? ' with Redis' : ''}, ${mount === 'server' ? "npm start's server" : 'next start'}`;
  try {
    if (browser) {
      out(`\n=== browser tests (Playwright, Chromium) on ${label} (${at()}) ===\n`);
      const reportDir = mkdtempSync(join(tmpdir(), 'gatehouse-playwright-'));
      const reportFile = join(reportDir, 'report.json');
      try {
        const { code } = await run(
          process.execPath,
          [join('node_modules', '@playwright', 'test', 'cli.js'), 'test', ...fileParts],
          { ...serverEnv, GATEHOUSE_TEST_PLAYWRIGHT_JSON: reportFile },
          { out },
        );
        tallyPlaywright(reportFile, code, out);
      } finally {
        rmSync(reportDir, { recursive: true, force: true });
      }
      return;
    }
    const shared = files.filter((file) => !file.alone).map((file) => file.path);
    const alone = files.filter((file) => file.alone).map((file) => file.path);
    // The files that need the server to themselves first, on a database still nearly empty
    // (database-copy.test.ts probes every value stored, within an authorization code's 60 s).
    const seconds = {
      ...(await nodeTests(`protocol tests over HTTP on ${label}, each alone on the server`, alone, serverEnv, { out })),
      ...(await nodeTests(`protocol tests over HTTP on ${label}`, shared, serverEnv, { concurrency: PROTOCOL_CONCURRENCY, out })),
    };
    slowest(seconds, out);
  } finally {
    await server.stop();
    out(`(the ${label} run ended ${at()})\n`);
  }
}

/**
 * GATEHOUSE_TEST_SIDE_BY_SIDE=0 runs the parts below one after another instead, for a machine too busy
 * for their timing tests (each still prints as it goes).
 */
const oneAtATime = process.env.GATEHOUSE_TEST_SIDE_BY_SIDE === '0';

/**
 * Runs `parts` side by side, writing to `out` so that no part's output is cut up: the first part
 * writes as it goes; the others write into buffers, and when the part that is writing ends, the
 * next one in order flushes its buffer and goes on writing as it goes. Rejects, once all have
 * ended, with the error of the first part that failed.
 */
async function sideBySide(parts: ((out: Out) => Promise<void>)[], out: Out = stdout) {
  if (oneAtATime) {
    for (const part of parts) await part(out);
    return;
  }
  const buffers = parts.map(() => '');
  const ended = parts.map(() => false);
  let live = 0;
  const results = await Promise.allSettled(
    parts.map(async (part, index) => {
      try {
        await part((text) => (index === live ? out(text) : void (buffers[index] += text)));
      } finally {
        ended[index] = true;
        while (live < parts.length && ended[live]) {
          live += 1;
          if (live < parts.length) out(buffers[live]);
        }
      }
    }),
  );
  const failed = results.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
}

/** What a server running from `npm start`'s build reads, and the tracked file a build may rewrite: `npm test` must change neither. */
function untouchedByTheRun() {
  const read = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8') : '(absent)');
  return { [`${DIST_DIRS.start}/BUILD_ID`]: read(join(DIST_DIRS.start, 'BUILD_ID')), 'tsconfig.json': read('tsconfig.json') };
}
const beforeTheRun = untouchedByTheRun();

/** A failure line, counted in the summary, for each of them that changed since the run began. */
function checkUntouched(when: string, out: Out = stdout) {
  const now = untouchedByTheRun();
  const changed = Object.keys(beforeTheRun).filter((path) => now[path] !== beforeTheRun[path]);
  for (const path of changed) out(`✖ ${path} changed ${when}: the run must leave npm start's build and the tree as they were\n`);
  if (changed.length > 0) totals.failed += changed.length;
  else {
    out(`✔ ${Object.keys(beforeTheRun).join(' and ')} unchanged ${when}\n`);
    totals.passed += 1;
  }
}

async function main() {
  const postgres = process.env.TEST_DATABASE_URL;
  const suites = wants('protocol') || wants('browser');
  if (suites && args.includes('--skip-build') && !existsSync(join(DIST_DIRS.test, 'BUILD_ID'))) {
    throw new Error(`--skip-build needs an earlier build of the tests' own (${DIST_DIRS.test}/BUILD_ID): run once without it`);
  }
  const build = async (out: Out) => {
    if (!suites || args.includes('--skip-build')) return;
    out(`\n=== next build (into ${DIST_DIRS.test}; ${at()}) ===\n`);
    if ((await run(process.execPath, [nextBin, 'build'], {}, { out })).code !== 0) throw new Error('next build failed');
    checkUntouched('by the build', out);
  };

  // The unit tests print as they go (and their coverage at the end); each other part's output
  // follows in one piece (sideBySide).
  const unit = async () => {
    if (!wants('unit')) return;
    if (!postgres) console.log('\nTEST_DATABASE_URL is not set: the PostgreSQL storage tests are skipped (they run on SQLite only).');
    const seconds = await nodeTests(
      'unit and storage contract tests',
      picked(testFiles(['lib', 'cli', 'scripts'])),
      { SECRETS_KEY: postgresSecretsKey },
      { coverage: true, concurrency: UNIT_CONCURRENCY },
    );
    slowest(seconds, stdout);
  };
  if (!suites) return unit();

  const redis = process.env.TEST_REDIS_URL;
  if (!postgres) console.log('\nTEST_DATABASE_URL is not set: the protocol tests do not run on PostgreSQL.');
  else if (!redis) console.log('\nTEST_REDIS_URL is not set: the protocol tests do not run with Redis (REDIS_URL).');
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-test-'));
  const sqlite = (name: string) => `file:${join(dir, `${name}.db`)}`;
  const onPostgres = (setup: Setup, out: Out) => withPostgresSchema(postgres!, (url) => suiteRun(setup, url, { out }));
  mailSink = await startMailSink();
  // The unit tests beside the build (they need neither it nor a server), then lanes side by side,
  // each server used by one suite at a time: on two cores the protocol files mostly wait (for
  // argon2id on the server, for an instance of their own to start, for a throttle's window), and the
  // browser suite's server is idle while Chromium renders. (Beside the lanes too, on a machine
  // already busy, the unit tests' CLI runs outlived their 120 s.)
  try {
    await sideBySide([unit, build]);
    await sideBySide([
      async (out) => {
        if (wants('browser')) await suiteRun('sqlite', sqlite('browser'), { browser: true, out });
      },
      async (out) => {
        if (!wants('protocol')) return;
        await suiteRun('sqlite', sqlite('gatehouse'), { out });
        await suiteRun('next', sqlite('next-start'), { out });
      },
      // The Redis run after the PostgreSQL one, not in a lane of its own: tried (a fresh clone's CI run, 892 s against
      // 855 s in three lanes), it only moved the same CPU earlier, where it slowed the browser lane (11.8 against
      // 10.6 min) and put more timing tests side by side.
      async (out) => {
        if (postgres && wants('protocol')) await onPostgres('postgres', out);
        if (postgres && redis && wants('protocol')) await onPostgres('redis', out);
      },
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await mailSink.close();
  }
}

main()
  .catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    totals.failed += 1;
  })
  .finally(() => {
    if (wants('protocol') || wants('browser')) checkUntouched('by the run');
    if (logDir && totals.failed === 0) rmSync(logDir, { recursive: true, force: true });
    else if (logDir) console.log(`\nthe servers' logs: ${logDir}`);
    if (flaky.length > 0) console.log(`\npassed on a retry (flaky):\n${flaky.map((line) => `  ! ${line}`).join('\n')}`);
    if (failures.length > 0) console.log(`\nfailed:\n${failures.map((line) => `  ✖ ${line}`).join('\n')}`);
    const seconds = Math.round((Date.now() - started) / 1000);
    console.log(`\nGatehouse test run finished in ${seconds}s`);
    console.log(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
    process.exit(totals.failed > 0 ? 1 : 0);
  });
