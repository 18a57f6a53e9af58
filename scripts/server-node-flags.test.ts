// `npm start` and every harness that starts the production server (tests, benchmark) run Node with the same flags.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import serverNodeFlags from './server-node-flags.json' with { type: 'json' };

// `exec`: npm's own child is then the wrapper, which passes npm's SIGTERM on and which npm waits for (docs/operations.md, *Stopping*).
test("npm start runs the server with scripts/server-node-flags.json's flags", () => {
  const { scripts } = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> };
  assert.equal(scripts.start, `exec node scripts/node.mjs ${serverNodeFlags.join(' ')} scripts/start.mjs`);
  for (const flag of serverNodeFlags) assert.match(flag, /^--[a-z-]+=\d+$/);
});
