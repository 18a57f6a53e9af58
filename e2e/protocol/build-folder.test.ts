// runs-on: mounts
/**
 * The server under test runs the build in GATEHOUSE_DIST_DIR (lib/config/dist-dir.ts),
 * `.next-test` under `npm test`, not `npm start`'s `.next`: its pages and server actions
 * come from that folder. scripts/test.ts checks the other half, that its build left `.next`
 * as it was; together they show that a server running from `.next` keeps answering its
 * forms while the tests build and run beside it.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { distDir } from '../../lib/config/dist-dir.ts';
import { serverActionId } from '../support/build.ts';
import { baseUrl } from '../support/fixtures.ts';

/** Posts a server action as Next's client does (no arguments), from the issuer's origin. */
function postAction(path: string, actionId: string) {
  return fetch(new URL(path, baseUrl), {
    method: 'POST',
    headers: { 'next-action': actionId, 'content-type': 'text/plain;charset=UTF-8', origin: new URL(baseUrl).origin, accept: 'text/x-component' },
    body: '[]',
    redirect: 'manual',
  });
}

test('the build folder is the one the run names, and it holds a finished build', () => {
  assert.equal(distDir(), process.env.GATEHOUSE_DIST_DIR || '.next');
  assert.ok(existsSync(join(distDir(), 'BUILD_ID')), `${distDir()}/BUILD_ID`);
});

test("the server answers a page and a server action of its build folder's manifest, and refuses an action id it does not have", async () => {
  const page = await fetch(new URL('/sign-in', baseUrl));
  assert.equal(page.status, 200);
  await page.arrayBuffer();

  const signOut = await postAction('/admin/users', serverActionId('signOutAction', 'app/admin'));
  await signOut.arrayBuffer();
  assert.equal(signOut.headers.get('x-nextjs-action-not-found'), null, `the action of ${distDir()} is found`);
  assert.ok(signOut.status < 400, `status ${signOut.status}`);
  assert.ok(signOut.headers.get('x-action-redirect'), 'signing out redirects');

  // What a server whose build was replaced under it answers every form with.
  const unknown = await postAction('/admin/users', 'ff'.repeat(21));
  await unknown.arrayBuffer();
  assert.equal(unknown.headers.get('x-nextjs-action-not-found'), '1');
});
