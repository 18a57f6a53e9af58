// Whether Next's build folder holds a build of the current sources: `npm start` builds
// first when it does not (scripts/start.mjs), and a test that runs `npm start` on the
// suite's own build says that it does (e2e/protocol/npm-start-stop.test.ts).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** What a build reads. */
const inputs = [
  'app',
  'components',
  'lib',
  'public',
  'instrumentation.ts',
  'proxy.ts',
  'next.config.ts',
  'postcss.config.mjs',
  'package-lock.json',
  'tsconfig.json',
];

/** A hash of every source file's path, size and mtime: cheap, and changes whenever a build would. */
export function sourceHash() {
  const hash = createHash('sha256');
  const visit = (path) => {
    if (!existsSync(path) || path.includes('node_modules') || path.endsWith('.test.ts')) return;
    const stat = statSync(path);
    if (stat.isDirectory()) {
      for (const entry of readdirSync(path).sort()) visit(join(path, entry));
    } else {
      hash.update(`${path}\0${stat.size}\0${stat.mtimeMs}\n`);
    }
  };
  inputs.forEach(visit);
  return hash.digest('hex');
}

/** Where the build in `distDir` records the sourceHash it was made from. */
export const stampFile = (distDir) => join(distDir, 'gatehouse-source-hash');
