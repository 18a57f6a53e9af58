// runs-on: once
// alone: runs an instance and an Apache httpd of its own beside the suite's server
// mod_auth_openidc as a third-party receiver of OpenID Connect Back-Channel Logout 1.0 (issue 26): Apache signs a
// person in through Gatehouse, keeping its session in its own cache; when an admin disables the person, Gatehouse
// posts a logout token to `<OIDCRedirectURI>?logout=backchannel`, mod_auth_openidc verifies it against Gatehouse's
// JWKS, finds its session by the token's sid and ends it, so the next visit of the protected page goes back to
// Gatehouse instead of getting the page; an Apache that is down then gets the token from the queue once it is back.
// Apache and the module come from the system's packages, as for mod-auth-openidc.test.ts (skipped where they are
// not installed, except under CI=true). The logout queue is proved on both databases by backchannel-logout.test.ts;
// what this adds (a real relying party accepts Gatehouse's logout tokens) cannot differ between stores, so it runs once.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, test } from 'node:test';
import { registerClient } from '../../lib/clients/manage.ts';
import { closeDatabase, database } from '../../lib/db/database.ts';
import { createUser, disableUser } from '../../lib/users/manage.ts';
import { findApacheWithOpenidc, navigation, type ProtectedSite, redirectUriFor, startProtectedSite } from '../support/apache.ts';
import { authorize, TestBrowser } from '../support/browser.ts';
import { freePort, isolatedDatabase, type ServerProcess, startServer } from '../support/server.ts';

const apache = findApacheWithOpenidc();
const skip =
  !apache && process.env.CI !== 'true'
    ? 'apache2 with mod_auth_openidc is not installed (Debian: apt-get install apache2 libapache2-mod-auth-openidc); under CI=true, .ci/run installs them and their absence fails this test'
    : false;

const unique = () => randomBytes(4).toString('hex');
const store = isolatedDatabase('openidc-logout');
const sites: ProtectedSite[] = [];
let instance: ServerProcess | undefined;

after(async () => {
  for (const site of sites) await site.stop();
  await instance?.stop();
  await closeDatabase(store.url);
  await store.drop();
});

/** Gatehouse with back-channel logout on (started once), a person, and an Apache whose session for them is live. */
async function signedIn(options: { fileCache?: boolean } = {}) {
  assert.ok(apache, 'apache2 and mod_auth_openidc are installed (.ci/run installs them)');
  // Ready within 90 s: on a loaded 2-core machine a fresh instance's first start (migrations, keys) can take 30.
  instance ??= await startServer({ DATABASE_URL: store.url, BACKCHANNEL_LOGOUT: 'on' }, { ready: { timeoutMs: 90_000 } });
  const gatehouse = instance.url;
  const db = database(store.url);
  const port = await freePort();
  const password = `pw-${unique()}-${unique()}`;
  const user = await createUser(db, { username: `bcl-${unique()}`, password, email: null, name: 'Logout Person', role: 'user' });
  const { client, clientSecret } = await registerClient(db, {
    name: 'Apache',
    redirectUris: [redirectUriFor(port)],
    scopes: ['openid', 'profile'],
    firstParty: true,
    backchannelLogoutUri: `${redirectUriFor(port)}?logout=backchannel`,
    backchannelLogoutSessionRequired: true,
  });
  const site = await startProtectedSite(apache, {
    issuer: gatehouse,
    clientId: client.id,
    clientSecret: clientSecret!,
    require: 'valid-user',
    scope: 'openid',
    port,
    fileCache: options.fileCache,
  });
  sites.push(site);
  const browser = new TestBrowser(site.url, site.url, navigation);
  const page = () => browser.navigate('/protected/page.txt');
  const start = await page();
  assert.ok(start.location?.href.startsWith(gatehouse), `sent to Gatehouse, not ${start.response.status}: ${site.errorLog()}`);
  const callback = await authorize(new TestBrowser(gatehouse), start.location as URL, { username: user.username, password });
  assert.equal(callback.origin, site.url);
  await browser.navigate(callback);
  const first = await page();
  assert.equal(first.response.status, 200, site.errorLog());
  assert.equal(await first.response.text(), 'members only\n');

  /** The delivery Gatehouse recorded (written just after mod_auth_openidc answered 200), or undefined. */
  const delivered = async () => {
    const [entry] = await db.prisma.auditEvent.findMany({ where: { targetType: 'client', targetId: client.id, action: 'backchannel_logout.delivered' } });
    return entry && (JSON.parse(entry.details) as { attempts: number });
  };
  /** Visits the protected page until it sends the browser to Gatehouse again: the Apache session ended. */
  const untilSignedOut = async (timeoutMs: number) => {
    for (const deadline = Date.now() + timeoutMs; ; ) {
      const again = await page();
      if (again.location?.href.startsWith(gatehouse)) return;
      assert.equal(again.response.status, 200, `still signed in or sent back to sign in, not ${again.response.status}: ${site.errorLog()}`);
      assert.ok(Date.now() < deadline, `the Apache session outlived the person's Gatehouse session: ${site.errorLog()}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };
  const untilDelivered = async () => {
    for (const deadline = Date.now() + 5_000; ; ) {
      const entry = await delivered();
      if (entry) return entry;
      assert.ok(Date.now() < deadline, 'Gatehouse recorded the delivery');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  return { db, user, client, site, page, delivered, untilSignedOut, untilDelivered };
}

test('an admin disabling the person ends their mod_auth_openidc session through back-channel logout', { skip, timeout: 180_000 }, async () => {
  const { db, user, untilSignedOut, untilDelivered } = await signedIn();
  await disableUser(db, user.id);
  // The queue posts at once; mod_auth_openidc answers 200 once it has ended the session.
  await untilSignedOut(20_000);
  assert.equal((await untilDelivered()).attempts, 1);
});

test('an Apache that is down when the session ends gets the logout token from the queue once it is back', { skip, timeout: 180_000 }, async () => {
  const { db, user, client, site, page, delivered, untilSignedOut, untilDelivered } = await signedIn({ fileCache: true });
  await site.down();
  await disableUser(db, user.id);
  // The first attempt fails (nothing listens) and the token waits in the queue, retried 5 s later.
  for (const deadline = Date.now() + 15_000; ; ) {
    const row = await db.prisma.backchannelLogout.findFirst({ where: { clientId: client.id } });
    if (row && row.attempts >= 1) break;
    assert.ok(Date.now() < deadline, 'no failed attempt recorded');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await site.up();
  // The session outlived Apache's restart (its file cache), so what ends it below is the logout token; unless the
  // retry already came, the page is still served.
  const survived = await page();
  if (!(await delivered())) assert.equal(survived.response.status, 200, `the session survives the restart: ${site.errorLog()}`);
  await untilSignedOut(30_000);
  assert.ok((await untilDelivered()).attempts >= 2);
  assert.equal(await db.prisma.backchannelLogout.count({ where: { clientId: client.id } }), 0);
});
