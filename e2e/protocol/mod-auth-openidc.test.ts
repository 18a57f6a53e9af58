// runs-on: once
// alone: runs an instance and an Apache httpd of its own beside the suite's server
// mod_auth_openidc as a relying party that authorizes on Gatehouse's `groups` claim (issue 25): a folder behind
// `Require claim groups:<group>` lets a member of the group in, and refuses the same person at their next sign-in
// after an admin took them out of the group. Apache and the module come from the system's packages (Debian:
// apt-get install apache2 libapache2-mod-auth-openidc): skipped where they are not installed, except under CI=true,
// where .ci/run installs them and their absence fails this test. The claim cannot differ between stores or mounts
// (lib/authorization/repository.ts accessOf is proved on both databases), so it runs once.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { addToGroup, createGroup, removeFromGroup } from '../../lib/authorization/manage.ts';
import { registerClient } from '../../lib/clients/manage.ts';
import { database } from '../../lib/db/database.ts';
import { createUser } from '../../lib/users/manage.ts';
import { findApacheWithOpenidc, navigation, type ProtectedSite, redirectUriFor, startProtectedSite } from '../support/apache.ts';
import { authorize, TestBrowser } from '../support/browser.ts';
import { freePort, isolatedDatabase, startServer } from '../support/server.ts';

const apache = findApacheWithOpenidc();
const skip =
  !apache && process.env.CI !== 'true'
    ? 'apache2 with mod_auth_openidc is not installed (Debian: apt-get install apache2 libapache2-mod-auth-openidc); under CI=true, .ci/run installs them and their absence fails this test'
    : false;

const unique = () => randomBytes(4).toString('hex');

test('Require claim groups:<group> lets a member in, and refuses them at their next sign-in once an admin removed them', {
  skip,
  timeout: 180_000,
}, async () => {
  assert.ok(apache, 'apache2 and mod_auth_openidc are installed (.ci/run installs them)');
  const store = isolatedDatabase('openidc');
  // Ready within 90 s: on a loaded 2-core machine a fresh instance's first start (migrations, keys) can take 30.
  const instance = await startServer({ DATABASE_URL: store.url, GROUPS_ROLES_CLAIMS: 'on' }, { ready: { timeoutMs: 90_000 } });
  let site: ProtectedSite | undefined;
  try {
    const db = database(store.url);
    const port = await freePort();
    const group = await createGroup(db, { name: `ops-${unique()}` });
    const password = `pw-${unique()}-${unique()}`;
    const user = await createUser(db, { username: `rp-${unique()}`, password, email: null, name: 'Relying Party Person', role: 'user' });
    await addToGroup(db, group.name, user.username);
    const { client, clientSecret } = await registerClient(db, {
      name: 'Apache',
      redirectUris: [redirectUriFor(port)],
      scopes: ['openid', 'profile', 'groups'],
      firstParty: true,
    });
    const rp = await startProtectedSite(apache, {
      issuer: instance.url,
      clientId: client.id,
      clientSecret: clientSecret!,
      require: `claim groups:${group.name}`,
      scope: 'openid groups',
      port,
    });
    site = rp;
    const gatehouse = new TestBrowser(instance.url);

    /** One visit of the protected page from a browser without an Apache session: its answer after signing in. */
    const visit = async () => {
      const browser = new TestBrowser(rp.url, rp.url, navigation);
      const start = await browser.navigate('/protected/page.txt');
      const toGatehouse = start.location;
      assert.ok(toGatehouse?.href.startsWith(instance.url), `sent to Gatehouse, not ${start.response.status}: ${rp.errorLog()}`);
      const callback = await authorize(gatehouse, toGatehouse as URL, { username: user.username, password });
      assert.equal(callback.origin, rp.url);
      const back = await browser.navigate(callback);
      return { status: back.response.status, body: await back.response.text() };
    };

    const member = await visit();
    assert.equal(member.status, 200, rp.errorLog());
    assert.equal(member.body, 'members only\n');

    await removeFromGroup(db, group.name, { id: user.id });
    const removed = await visit();
    // Apache's authorization failure: mod_auth_openidc 2.4.12 answers it 401 (OIDCUnAutzAction 403 notwithstanding).
    assert.ok([401, 403].includes(removed.status), `refused once out of ${group.name}, not ${removed.status}: ${rp.errorLog()}`);
    assert.match(rp.errorLog(), new RegExp(`could not match require claim expression 'groups:${group.name}'`));
    assert.doesNotMatch(removed.body, /members only/);
  } finally {
    await site?.stop();
    await instance.stop();
    await store.drop();
  }
});
