// runs-on: mounts
// Rotating COOKIE_KEYS (README, "Rotating COOKIE_KEYS"), end to end on an instance of its own. The
// provider's cookies are signed with the first key and verified with any (koa's keygrip); a cookie
// verified with a later key is signed again with the first on that response. So with `new,old` every
// session goes on, and a session used while both keys were listed carries the new signature; once
// `old` is dropped, a session not used in that time is no longer recognised (login_required).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { closeDatabase } from '../../lib/db/database.ts';
import { freePort, isolatedDatabase, startInstance } from '../support/server.ts';

const own = isolatedDatabase('cookie-keys');
const port = await freePort();
// The fixtures read where the server is on first use: this file's own instance.
process.env.GATEHOUSE_TEST_URL = `http://localhost:${port}`;
process.env.GATEHOUSE_TEST_DATABASE_URL = own.url;
const { authorize, TestBrowser } = await import('../support/browser.ts');
const { authorizationRequest, baseUrl, makeClient, makeUser } = await import('../support/fixtures.ts');

const [oldKey, newKey] = [randomBytes(32).toString('base64url'), randomBytes(32).toString('base64url')];
let stop: (() => Promise<void>) | undefined;
const start = async (cookieKeys: string[]) => {
  await stop?.();
  ({ stop } = await startInstance({ DATABASE_URL: own.url, ISSUER: baseUrl, COOKIE_KEYS: cookieKeys.join(',') }, port));
};

after(async () => {
  await stop?.();
  await closeDatabase(own.url);
  await own.drop();
});

let client: Awaited<ReturnType<typeof makeClient>>;
/** Signed in under `old`; one is used while both keys are listed, the other is not. */
const used = new TestBrowser(`http://localhost:${port}`);
const idle = new TestBrowser(`http://localhost:${port}`);

/** A silent authorization request (OIDC Core §3.1.2.1, prompt=none): `code`, or the error it answers. */
async function silent(browser: InstanceType<typeof TestBrowser>) {
  const { url } = await authorizationRequest(client, { prompt: 'none', scope: 'openid' });
  const { location } = await browser.navigate(url);
  return location?.searchParams.get('code') ? 'code' : location?.searchParams.get('error');
}

before(async () => {
  await start([oldKey]);
  client = await makeClient();
  for (const browser of [used, idle]) {
    const { url } = await authorizationRequest(client, { scope: 'openid' });
    assert.ok((await authorize(browser, url, await makeUser())).searchParams.get('code'));
  }
});

test('a new key in front (`new,old`): the session signed with the old key still signs in silently, and is signed again with the new one', async () => {
  await start([newKey, oldKey]);
  const signature = used.cookie('_session.sig');
  assert.equal(await silent(used), 'code');
  assert.notEqual(used.cookie('_session.sig'), signature, 'the session cookie now carries the new key’s signature');
});

test('the old key dropped: a session used in the meantime goes on; one that was not is no longer recognised', async () => {
  await start([newKey]);
  assert.equal(await silent(used), 'code');
  assert.equal(await silent(idle), 'login_required');
});
