// `npm run build`: `next build`, then the record of which sources it built, which `npm start`
// compares before it serves (scripts/build-stamp.mjs). Arguments go to `next build`.
import { build } from './build-stamp.mjs';

process.env.NEXT_TELEMETRY_DISABLED ??= '1';
process.exitCode = await build(process.env.GATEHOUSE_DIST_DIR || '.next', { args: process.argv.slice(2) });
