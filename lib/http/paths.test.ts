// Which paths only the 404 page answers: every route folder of app/ and file of public/ is known here.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { test } from 'node:test';
import { isUnroutedPath, ROUTED_SEGMENT_NAMES } from './paths.ts';

test('every top-level route folder of app/ and file of public/ is a routed segment', () => {
  const routes = readdirSync('app', { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('('))
    .map((entry) => entry.name);
  const files = readdirSync('public');
  for (const name of [...routes, ...files]) assert.ok(ROUTED_SEGMENT_NAMES.has(name), `${name} is missing from ROUTED_SEGMENTS (lib/http/paths.ts)`);
});

test('unrouted: a first segment nothing answers; never the landing page or a route', () => {
  assert.equal(isUnroutedPath('/no-such-page'), true);
  assert.equal(isUnroutedPath('/no/such/page'), true);
  assert.equal(isUnroutedPath('/'), false);
  assert.equal(isUnroutedPath('/admin/nothing-here'), false);
  assert.equal(isUnroutedPath('/interaction/abc'), false);
  assert.equal(isUnroutedPath('/favicon.svg'), false);
});
