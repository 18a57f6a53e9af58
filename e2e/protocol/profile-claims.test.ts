// runs-on: databases
// The standard profile claims and the admins' custom attributes reach apps (issue 25, Claims): given_name,
// family_name, picture, locale and zoneinfo under `profile`, the phone number under `phone`, at userinfo (the ID
// token of a code flow carries scope claims only when its access token is for an API: oidc-provider's
// conformIdTokenClaims, OIDC Core §5.4) and listed in discovery; an attribute only in the ID token and userinfo of
// a client an admin mapped it for, under the claim name of that mapping, and that name in discovery's claims_supported.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import * as oidc from 'openid-client';
import { createAttribute, mapClaim, setAttributeValues } from '../../lib/claims/attributes.ts';
import { database } from '../../lib/db/database.ts';
import { DISCOVERY_KEPT_MS } from '../../lib/oidc/mounts/node-documents.ts';
import { updateProfileClaims } from '../../lib/users/profile-claims.ts';
import { authorize, TestBrowser } from '../support/browser.ts';
import { baseUrl, databaseUrl, discover, makeClient, makeUser, pkce, redirectUri } from '../support/fixtures.ts';

const unique = () => randomBytes(4).toString('hex');

async function signInAs(user: Awaited<ReturnType<typeof makeUser>>, client: Awaited<ReturnType<typeof makeClient>>, scope: string) {
  const config = await discover(client);
  const { verifier, challenge } = await pkce();
  const callback = await authorize(
    new TestBrowser(baseUrl),
    oidc.buildAuthorizationUrl(config, { redirect_uri: redirectUri, scope, code_challenge: challenge, code_challenge_method: 'S256' }),
    user,
  );
  const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier });
  const claims = tokens.claims()!;
  const userinfo = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
  return { claims, userinfo };
}

const profile = {
  givenName: 'Ada',
  familyName: 'Lovelace',
  picture: 'https://pictures.example.test/ada.png',
  locale: 'en-GB',
  zoneinfo: 'Europe/London',
  phoneNumber: '+442079460958',
  phoneNumberVerified: true,
};

test('discovery lists the profile claims, the phone scope and its claims', async () => {
  const metadata = (await (await fetch(new URL('/.well-known/openid-configuration', baseUrl))).json()) as {
    claims_supported: string[];
    scopes_supported: string[];
  };
  for (const claim of ['given_name', 'family_name', 'picture', 'locale', 'zoneinfo', 'phone_number', 'phone_number_verified']) {
    assert.ok(metadata.claims_supported.includes(claim), claim);
  }
  assert.ok(metadata.scopes_supported.includes('phone'));
});

test('profile and phone release the stored claims at userinfo; openid alone releases none', async () => {
  const user = await makeUser();
  await updateProfileClaims(database(databaseUrl), user.id, profile, 'admin');
  const client = await makeClient({ scopes: ['openid', 'profile', 'email', 'phone'] });
  const expected = {
    given_name: 'Ada',
    family_name: 'Lovelace',
    picture: profile.picture,
    locale: 'en-GB',
    zoneinfo: 'Europe/London',
    phone_number: '+442079460958',
    phone_number_verified: true,
  };
  const both = await signInAs(user, client, 'openid profile phone');
  for (const [claim, value] of Object.entries(expected)) assert.deepEqual(both.userinfo[claim], value, `userinfo ${claim}`);
  const bare = await signInAs(user, client, 'openid');
  for (const claim of Object.keys(expected)) {
    assert.equal(bare.claims[claim], undefined, claim);
    assert.equal(bare.userinfo[claim], undefined, claim);
  }
});

test("a custom attribute reaches only the client an admin mapped it for, under that mapping's claim name", async () => {
  const db = database(databaseUrl);
  const id = unique();
  const attribute = await createAttribute(db, { key: `department_${id}`, name: 'Department' });
  const user = await makeUser();
  await setAttributeValues(db, user.id, { [attribute.key]: 'Research' }, 'admin');
  const mapped = await makeClient();
  const claim = `dept_${id}`;
  await mapClaim(db, mapped.id, { claim, attribute: attribute.key });

  const withMapping = await signInAs(user, mapped, 'openid');
  assert.equal(withMapping.claims[claim], 'Research');
  assert.equal(withMapping.userinfo[claim], 'Research');
  assert.equal(withMapping.claims[attribute.key], undefined, 'never under the attribute key itself');

  const without = await signInAs(user, await makeClient(), 'openid');
  assert.equal(without.claims[claim], undefined);
  assert.equal(without.userinfo[claim], undefined);

  // Discovery lists the mapped name (an app can be given it) once the replayed document is renewed, within seconds.
  // The sign-ins above fetched discovery after the mapping existed: the document served then is renewed.
  assert.ok(await discoveryLists(claim, DISCOVERY_KEPT_MS + 5_000), `claims_supported lists ${claim}`);
});

/** Whether discovery's claims_supported comes to list `claim` within `ms`. */
async function discoveryLists(claim: string, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  for (;;) {
    const metadata = (await (await fetch(new URL('/.well-known/openid-configuration', baseUrl))).json()) as { claims_supported: string[] };
    if (metadata.claims_supported.includes(claim)) return true;
    if (Date.now() > until) return false;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
