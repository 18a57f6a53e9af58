/**
 * The build the servers under test run: the folder scripts/test.ts built into and started
 * them with (GATEHOUSE_DIST_DIR, lib/config/dist-dir.ts), and what tests read from it.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { distDir } from '../../lib/config/dist-dir.ts';

/** The id of a server action of the build (ids change with every build), by its export name and the route folder that uses it. */
export function serverActionId(exportedName: string, routePrefix: string): string {
  const manifest = JSON.parse(readFileSync(join(distDir(), 'server', 'server-reference-manifest.json'), 'utf8')) as {
    node: Record<string, { exportedName?: string; workers: Record<string, unknown> }>;
  };
  const entry = Object.entries(manifest.node).find(
    ([, action]) => action.exportedName === exportedName && Object.keys(action.workers).some((w) => w.startsWith(routePrefix)),
  );
  assert.ok(entry, `${exportedName} of ${routePrefix} is in the build`);
  return entry[0];
}
