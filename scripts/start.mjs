// `npm start`: builds the app when the sources changed since the last build,
// then serves it with scripts/server.mjs (the provider ahead of Next, in this
// process). Migrations, the first admin and the signing keys are created by
// instrumentation.ts when the server starts.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sourceHash, stampFile } from './build-stamp.mjs';

process.env.NEXT_TELEMETRY_DISABLED ??= '1';
const next = join('node_modules', 'next', 'dist', 'bin', 'next');
// Next's build folder (GATEHOUSE_DIST_DIR, validated by next.config.ts through lib/config/dist-dir.ts).
const distDir = process.env.GATEHOUSE_DIST_DIR || '.next';
const stamp = stampFile(distDir);

const current = sourceHash();
const built = existsSync(join(distDir, 'BUILD_ID')) && existsSync(stamp) ? readFileSync(stamp, 'utf8') : '';
if (built !== current) {
  console.log('[gatehouse] building the app (first start or sources changed)...');
  // Not spawnSync: a SIGTERM or SIGINT during the build stops the build too, instead of leaving it running.
  const build = spawn(process.execPath, [next, 'build'], { stdio: 'inherit' });
  const stop = (signal) => build.kill(signal);
  process.on('SIGINT', stop).on('SIGTERM', stop);
  const [code, signal] = await once(build, 'exit');
  process.off('SIGINT', stop).off('SIGTERM', stop);
  if (signal) process.exit(1);
  if (code !== 0) process.exit(code ?? 1);
  writeFileSync(stamp, current);
}

await import('./server.mjs');
