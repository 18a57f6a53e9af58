import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DIST_DIR_VARIABLE, distDir } from './dist-dir.ts';

test('the build folder defaults to .next and takes .next-<name> from the environment', () => {
  assert.equal(distDir({}), '.next');
  assert.equal(distDir({ [DIST_DIR_VARIABLE]: '' }), '.next');
  assert.equal(distDir({ [DIST_DIR_VARIABLE]: '.next-test' }), '.next-test');
  assert.equal(distDir({ [DIST_DIR_VARIABLE]: '.next-bench-2' }), '.next-bench-2');
});

test('a build folder outside the project, nested or of another name is refused', () => {
  for (const value of ['/tmp/build', '../.next', '.next/../app', '.next/x', 'build', 'app', 'node_modules', '.next-', '.next-Test', '.', '..']) {
    assert.throws(() => distDir({ [DIST_DIR_VARIABLE]: value }), /GATEHOUSE_DIST_DIR must be/, value);
  }
});
