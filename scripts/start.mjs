// `npm start`: builds the app when the sources changed since the last build,
// then serves it with scripts/server.mjs (the provider ahead of Next, in this
// process). Migrations, the first admin and the signing keys are created by
// instrumentation.ts when the server starts.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

process.env.NEXT_TELEMETRY_DISABLED ??= '1';
const next = join('node_modules', 'next', 'dist', 'bin', 'next');
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
// Next's build folder (GATEHOUSE_DIST_DIR, validated by next.config.ts through lib/config/dist-dir.ts).
const distDir = process.env.GATEHOUSE_DIST_DIR || '.next';
const stampFile = join(distDir, 'gatehouse-source-hash');

/** A hash of every source file's path, size and mtime: cheap, and changes whenever a build would. */
function sourceHash() {
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

const current = sourceHash();
const built = existsSync(join(distDir, 'BUILD_ID')) && existsSync(stampFile) ? readFileSync(stampFile, 'utf8') : '';
if (built !== current) {
  console.log('[gatehouse] building the app (first start or sources changed)...');
  const result = spawnSync(process.execPath, [next, 'build'], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
  writeFileSync(stampFile, current);
}

await import('./server.mjs');
