/**
 * What the CLI's black-box tests share: running the real `cli/gatehouse.ts` in
 * a child process against a database, and reading its answer. Not a test file.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

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

function runCli(args: string[], { input, databaseUrl, env }: { input?: string; databaseUrl: string; env?: Record<string, string | undefined> }): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'cli/gatehouse.ts', ...args], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrl, ...env },
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
