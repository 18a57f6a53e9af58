// Whether Next's build folder holds a build of the current sources: `npm start` builds
// first when it does not (scripts/start.mjs), `npm run build` records what it built
// (scripts/build.mjs), and a test that runs `npm start` on the suite's own build says
// that it does (e2e/protocol/npm-start-stop.test.ts).
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** What a build reads. */
const inputs = [
  'app',
  'components',
  'lib',
  'public',
  'instrumentation.ts',
  'proxy.ts',
  'next.config.js',
  'postcss.config.mjs',
  'package-lock.json',
  'tsconfig.json',
];

/** A hash of every source file's path, size and mtime under `root`: cheap, and changes whenever a build would. */
export function sourceHash(root = '.') {
  const hash = createHash('sha256');
  const visit = (path) => {
    const full = join(root, path);
    if (!existsSync(full) || path.includes('node_modules') || path.endsWith('.test.ts')) return;
    const stat = statSync(full);
    if (stat.isDirectory()) {
      for (const entry of readdirSync(full).sort()) visit(join(path, entry));
    } else {
      hash.update(`${path}\0${stat.size}\0${stat.mtimeMs}\n`);
    }
  };
  inputs.forEach(visit);
  return hash.digest('hex');
}

/** Where the build in `distDir` records the sourceHash it was made from. */
export const stampFile = (distDir) => join(distDir, 'gatehouse-source-hash');

/** Whether `distDir` (under `root`) holds a finished build of the sources whose hash is `hash`. */
export function isCurrent(distDir, hash, root = '.') {
  const stamp = join(root, stampFile(distDir));
  return existsSync(join(root, distDir, 'BUILD_ID')) && existsSync(stamp) && readFileSync(stamp, 'utf8') === hash;
}

/**
 * Runs `next build` (with `args`) in `root` and, when it succeeds, records the hash of the sources
 * as they were when it began: a source changed during the build makes the next start build again.
 * A SIGTERM or SIGINT meanwhile stops the build too, instead of leaving it running.
 * Resolves to the exit status to leave with. `next`: the script that builds (a test's stand-in).
 */
export async function build(distDir, { args = [], root = '.', next = join('node_modules', 'next', 'dist', 'bin', 'next') } = {}) {
  const hash = sourceHash(root);
  const child = spawn(process.execPath, [next, 'build', ...args], { stdio: 'inherit', cwd: root });
  const stop = (signal) => child.kill(signal);
  process.on('SIGINT', stop).on('SIGTERM', stop);
  const [code, signal] = await once(child, 'exit');
  process.off('SIGINT', stop).off('SIGTERM', stop);
  if (signal) return 1;
  if (code !== 0) return code ?? 1;
  writeFileSync(join(root, stampFile(distDir)), hash);
  return 0;
}
