// `npm start`: builds the app when the sources changed since the last build
// (`npm run build` records what it built, so a start right after it does not build
// again), then serves it with scripts/server.mjs (the provider ahead of Next, in this
// process). Migrations, the first admin and the signing keys are created by
// instrumentation.ts when the server starts.
import { build, isCurrent, sourceHash } from './build-stamp.mjs';

process.env.NEXT_TELEMETRY_DISABLED ??= '1';
// Next's build folder (GATEHOUSE_DIST_DIR, validated by next.config.js).
const distDir = process.env.GATEHOUSE_DIST_DIR || '.next';

if (!isCurrent(distDir, sourceHash())) {
  console.log('[gatehouse] building the app (first start or sources changed)...');
  const status = await build(distDir);
  if (status !== 0) process.exit(status);
}

await import('./server.mjs');
