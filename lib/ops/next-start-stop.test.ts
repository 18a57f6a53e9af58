// The stop under plain `next start`: Next's signal handler ends in process.exit, which waits for our close.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const dir = mkdtempSync(join(tmpdir(), 'gatehouse-next-stop-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const module = fileURLToPath(new URL('./next-start-stop.ts', import.meta.url));

/**
 * A process that behaves as `next start` does on a signal (a handler registered first that ends, a
 * little later, in process.exit(143)), with closeBeforeNextExits installed after it. `close` takes
 * `closeMs` and fails when `failClose`. Resolves with the exit code and the lines written.
 */
async function run({ closeMs = 200, failClose = false, exitAtOnce = false } = {}): Promise<{ code: number | null; lines: string[] }> {
  const script = join(dir, `child-${Math.random().toString(36).slice(2)}.ts`);
  writeFileSync(
    script,
    `
import { closeBeforeNextExits } from ${JSON.stringify(module)};
// Next's handler: registered first, stops its server, then exits with 128 + SIGTERM.
process.on('SIGTERM', () => setTimeout(() => process.exit(143), 20));
const log = { info: (a: unknown, b?: string) => console.log(b ?? a), error: (a: unknown, b?: string) => console.log(b ?? a) };
closeBeforeNextExits(async () => {
  await new Promise((resolve) => setTimeout(resolve, ${closeMs}));
  ${failClose ? "throw new Error('pool did not end');" : "console.log('closed');"}
}, log, 1000);
${exitAtOnce ? 'process.exit(3);' : ''}
console.log('ready');
setInterval(() => {}, 1000);
`,
  );
  const child = spawn(process.execPath, [script], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
    if (output.includes('ready\n') && !output.includes('sent')) {
      output += 'sent\n';
      child.kill('SIGTERM');
    }
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
  return { code, lines: output.trim().split('\n') };
}

test("Next's exit waits for close, then happens with Next's code", async () => {
  const { code, lines } = await run();
  assert.equal(code, 143);
  assert.deepEqual(lines, ['ready', 'sent', 'stopping', 'closed', 'stopped']);
});

test('a close that fails exits 1, saying so', async () => {
  const { code, lines } = await run({ failClose: true });
  assert.equal(code, 1);
  assert.deepEqual(lines.slice(-1), ['the database, the throttle store or the tracer did not close']);
});

test('a close that takes longer than the limit exits 1', async () => {
  const { code, lines } = await run({ closeMs: 5000 });
  assert.equal(code, 1);
  assert.ok(lines.includes('not stopped after 1 s: exiting'), lines.join('\n'));
});

test('an exit before any signal is not held', async () => {
  const { code, lines } = await run({ exitAtOnce: true });
  assert.equal(code, 3);
  assert.deepEqual(lines, ['']);
});
