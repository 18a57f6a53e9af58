import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { build, isCurrent, sourceHash } from './build-stamp.mjs';

const roots: string[] = [];
after(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

/** A checkout with one source file and a stand-in for `next build` that writes BUILD_ID, or fails. */
function checkout(nextExits = 0) {
  const root = mkdtempSync(join(tmpdir(), 'gatehouse-stamp-'));
  roots.push(root);
  mkdirSync(join(root, 'app'));
  writeFileSync(join(root, 'app', 'page.tsx'), 'export default function Page() {}\n');
  writeFileSync(join(root, 'app', 'page.test.ts'), '');
  writeFileSync(
    join(root, 'fake-next.mjs'),
    `import { mkdirSync, writeFileSync } from 'node:fs';
if (${nextExits} === 0) { mkdirSync('.next', { recursive: true }); writeFileSync('.next/BUILD_ID', 'x'); }
process.exit(${nextExits});\n`,
  );
  return { root, next: join(root, 'fake-next.mjs') };
}

test('`npm run build` records the sources it built, so the first `npm start` after it serves without building again', async () => {
  const { root, next } = checkout();
  assert.equal(isCurrent('.next', sourceHash(root), root), false, 'nothing built yet');
  assert.equal(await build('.next', { root, next }), 0);
  assert.equal(isCurrent('.next', sourceHash(root), root), true);
});

test('a source changed after the build makes the start build again; a test file does not', async () => {
  const { root, next } = checkout();
  await build('.next', { root, next });
  writeFileSync(join(root, 'app', 'page.test.ts'), 'changed');
  assert.equal(isCurrent('.next', sourceHash(root), root), true);
  const later = new Date(Date.now() + 5_000);
  utimesSync(join(root, 'app', 'page.tsx'), later, later);
  assert.equal(isCurrent('.next', sourceHash(root), root), false);
});

test('a failed build records nothing and its status is the exit status', async () => {
  const { root, next } = checkout(3);
  assert.equal(await build('.next', { root, next }), 3);
  assert.equal(isCurrent('.next', sourceHash(root), root), false);
});
