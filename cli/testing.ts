/**
 * What the CLI's tests share: running a command line through `cli/main.ts` (what `cli/gatehouse.ts`
 * runs) in the test's own process, with an environment, a stdin and output streams of its own, against a
 * database, and reading its answer. A child process per command line cost ~1.3 s of CPU in module
 * loading alone, over ninety times a run; `cli/gatehouse.test.ts` still runs the real entry point in a
 * process of its own for what only it does (the exit status, the streams). Not a test file.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { runGatehouse } from './main.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI; stdin is `input` when given, else /dev/null (not a TTY, like a script's); `env` adds to the environment (undefined: removes). */
export function cliRunner(defaultDatabaseUrl: string) {
  return (args: string[], options: { input?: string; databaseUrl?: string; env?: Record<string, string | undefined> } = {}) =>
    runCli(args, { databaseUrl: defaultDatabaseUrl, ...options });
}

/** The command lines of a test file run one at a time: each swaps process.env for its own while it runs. */
let queue: Promise<unknown> = Promise.resolve();

function runCli(args: string[], options: { input?: string; databaseUrl: string; env?: Record<string, string | undefined> }): Promise<Run> {
  const turn = queue.then(() => runInProcess(args, options));
  queue = turn.catch(() => undefined);
  return turn;
}

async function runInProcess(
  args: string[],
  { input, databaseUrl, env }: { input?: string; databaseUrl: string; env?: Record<string, string | undefined> },
): Promise<Run> {
  const saved = process.env;
  // A new object, so lib/config/env.ts parses it anew; undefined removes a variable, as for a child process.
  const scoped: NodeJS.ProcessEnv = { ...saved, DATABASE_URL: databaseUrl, ...env };
  for (const [name, value] of Object.entries(scoped)) if (value === undefined) delete scoped[name];
  let stdout = '';
  let stderr = '';
  const sink = (append: (text: string) => void) =>
    new Writable({
      write(chunk, _encoding, done) {
        append(String(chunk));
        done();
      },
    });
  process.env = scoped;
  try {
    const code = await runGatehouse(args, {
      // Like a child's stdin on /dev/null when there is no input: not a TTY, and empty.
      stdin: Readable.from(input === undefined ? [] : [Buffer.from(input)]),
      stdout: sink((text) => (stdout += text)),
      stderr: sink((text) => (stderr += text)),
    });
    return { code, stdout, stderr };
  } finally {
    process.env = saved;
  }
}

/** Runs the real entry point, `cli/gatehouse.ts`, in a process of its own (as `npm run gatehouse` does). */
export function cliProcess(args: string[], { databaseUrl, input }: { databaseUrl: string; input?: string }): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['cli/gatehouse.ts', ...args], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrl },
      stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    if (input !== undefined) child.stdin!.end(input);
  });
}

/** The CLI's own failure line (oidc-provider may add a runtime warning of its own). */
export function failure(run: Run): string {
  const lines = run.stderr.split('\n').filter((l) => l.startsWith('gatehouse: '));
  assert.equal(lines.length, 1, `one gatehouse: line on stderr, got ${JSON.stringify(run.stderr)}`);
  return lines[0];
}

export function ok(run: Run): Run {
  assert.equal(run.code, 0, `exit 0 expected, stderr: ${run.stderr}`);
  return run;
}
