// runs-on: once
// alone: runs an instance and an Apache httpd of its own beside the suite's server
// mod_auth_openidc as a third-party receiver of OpenID Connect Back-Channel Logout 1.0 (issue 26): Apache signs a
// person in through Gatehouse, keeping its session in its own cache; when an admin disables the person, Gatehouse
// posts a logout token to `<OIDCRedirectURI>?logout=backchannel`, mod_auth_openidc verifies it against Gatehouse's
// JWKS, finds its session by the token's sid and ends it, so the next visit of the protected page goes back to
// Gatehouse instead of getting the page. Apache and the module come from the system's packages, as for
// mod-auth-openidc.test.ts (skipped where they are not installed, except under CI=true). The logout queue is proved
// on both databases by backchannel-logout.test.ts; what this adds (a real relying party accepts Gatehouse's logout
// tokens) cannot differ between stores, so it runs once.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { registerClient } from '../../lib/clients/manage.ts';
import { database } from '../../lib/db/database.ts';
import { createUser, disableUser } from '../../lib/users/manage.ts';
import { findApacheWithOpenidc, navigation, type ProtectedSite, redirectUriFor, startProtectedSite } from '../support/apache.ts';
import { authorize, TestBrowser } from '../support/browser.ts';
import { freePort, isolatedDatabase, startServer } from '../support/server.ts';

const apache = findApacheWithOpenidc();
const skip =
  !apache && process.env.CI !== 'true'
    ? 'apache2 with mod_auth_openidc is not installed (Debian: apt-get install apache2 libapache2-mod-auth-openidc); under CI=true, .ci/run installs them and their absence fails this test'
    : false;

const unique = () => randomBytes(4).toString('hex');

test('an admin disabling the person ends their mod_auth_openidc session through back-channel logout', { skip, timeout: 180_000 }, async () => {
  assert.ok(apache, 'apache2 and mod_auth_openidc are installed (.ci/run installs them)');
  const store = isolatedDatabase('openidc-logout');
  const instance = await startServer({ DATABASE_URL: store.url, BACKCHANNEL_LOGOUT: 'on' }, { ready: { timeoutMs: 90_000 } });
  let site: ProtectedSite | undefined;
  try {
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
    const rp = await startProtectedSite(apache, {
      issuer: instance.url,
      clientId: client.id,
      clientSecret: clientSecret!,
      require: 'valid-user',
      scope: 'openid',
      port,
    });
    site = rp;
    const browser = new TestBrowser(rp.url, rp.url, navigation);
    const page = () => browser.navigate('/protected/page.txt');

    const start = await page();
    assert.ok(start.location?.href.startsWith(instance.url), `sent to Gatehouse, not ${start.response.status}: ${rp.errorLog()}`);
    const callback = await authorize(new TestBrowser(instance.url), start.location as URL, { username: user.username, password });
    assert.equal(callback.origin, rp.url);
    await browser.navigate(callback);
    const signedIn = await page();
    assert.equal(signedIn.response.status, 200, rp.errorLog());
    assert.equal(await signedIn.response.text(), 'members only\n');

    await disableUser(db, user.id);
    // The queue posts at once; mod_auth_openidc answers 200 once it has ended the session.
    let last = 0;
    for (const deadline = Date.now() + 20_000; ; ) {
      const again = await page();
      last = again.response.status;
      if (again.location?.href.startsWith(instance.url)) break;
      assert.equal(last, 200, `still signed in or sent back to sign in, not ${last}: ${rp.errorLog()}`);
      assert.ok(Date.now() < deadline, `the Apache session outlived the person's Gatehouse session: ${rp.errorLog()}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    // Gatehouse records the outcome just after mod_auth_openidc answered: a 200 on the first attempt.
    for (const deadline = Date.now() + 5_000; ; ) {
      const [delivered] = await db.prisma.auditEvent.findMany({ where: { targetType: 'client', targetId: client.id, action: 'backchannel_logout.delivered' } });
      if (delivered) {
        assert.equal((JSON.parse(delivered.details) as { attempts: number }).attempts, 1);
        break;
      }
      assert.ok(Date.now() < deadline, 'Gatehouse recorded the delivery');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await site?.stop();
    await instance.stop();
    await store.drop();
  }
});
