// runs-on: once
// SCIM 2.0 (RFC 7643, RFC 7644) at /scim/v2 over HTTP, with SCIM=on (scripts/test.ts protocolSettings): RFC 7644's
// own example requests replayed (§3.5.2's PATCH examples checked against SCIMMY's schemas), a provisioning client's
// lifecycle (create, patch, deactivate: the person's tokens end and they cannot sign in, delete), partial answers
// (attributes, excludedAttributes), bad filters, paths and bodies answered with SCIM error bodies and their
// scimType, /Bulk and /Me as 501, and the tokens' authentication; and an instance of its own with the default,
// SCIM off, where every path is a plain 404. What cannot differ between stores is proved here once; the use cases
// run on every database in lib/scim/scim.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import * as oidc from 'openid-client';
import SCIMMY from 'scimmy';
import { authorize, TestBrowser } from '../support/browser.ts';
import { adminToken, api, makeAdminApiClient } from '../support/admin-api.ts';
import { baseUrl, databaseUrl, discover, makeClient, pkce, redirectUri } from '../support/fixtures.ts';
import { isolatedDatabase, startInstance } from '../support/server.ts';
import { closeDatabase, database } from '../../lib/db/database.ts';
import { randomBytes } from 'node:crypto';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';
const unique = () => randomBytes(4).toString('hex');

/** A token issued through the admin API, as an admin hands one to a provisioning client. */
async function provisioningClient() {
  const name = `okta-${unique()}`;
  const issued = await api('POST', '/api/admin/scim-tokens', { token: await adminToken(await makeAdminApiClient()), json: { name } });
  assert.equal(issued.status, 201, JSON.stringify(issued.body));
  return { name, id: issued.body.id as string, token: issued.body.token as string };
}

async function scim(token: string | undefined, method: string, path: string, options: { json?: unknown; raw?: string; headers?: Record<string, string> } = {}) {
  const body = options.raw ?? (options.json === undefined ? undefined : JSON.stringify(options.json));
  const response = await fetch(new URL(`/scim/v2/${path}`, baseUrl), {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/scim+json' }),
      ...options.headers,
    },
    body,
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

function assertError(answer: Awaited<ReturnType<typeof scim>>, status: number, scimType?: string) {
  assert.equal(answer.status, status, JSON.stringify(answer.body));
  assert.match(answer.headers.get('content-type') ?? '', /^application\/scim\+json/);
  assert.deepEqual(answer.body.schemas, [ERROR]);
  assert.equal(answer.body.status, String(status), 'status is a string (RFC 7644 §3.12)');
  assert.equal(answer.body.scimType, scimType);
  assert.equal(typeof answer.body.detail, 'string');
}

test('authentication: no token, a wrong one and a revoked one are 401 with a SCIM error body', async () => {
  const client = await provisioningClient();
  assertError(await scim(undefined, 'GET', 'Users'), 401);
  const wrong = await scim(`${client.token}x`, 'GET', 'Users');
  assertError(wrong, 401);
  assert.match(wrong.headers.get('www-authenticate') ?? '', /^Bearer /);
  assert.equal((await scim(client.token, 'GET', 'ServiceProviderConfig')).status, 200);
  const revoked = await api('POST', `/api/admin/scim-tokens/${client.id}/revoke`, { token: await adminToken(await makeAdminApiClient()) });
  assert.equal(revoked.status, 200);
  assert.notEqual(revoked.body.revoked_at, null);
  assertError(await scim(client.token, 'GET', 'ServiceProviderConfig'), 401);
});

test('RFC 7644 §3.3, §3.4, §3.5, §3.6: the examples replayed (create, read with ETag, filter, replace, patch, delete, a group and its members)', async () => {
  const { token } = await provisioningClient();
  const userName = `bjensen-${unique()}`;
  // §3.3's request, with a userName of our own so the run can repeat.
  const created = await scim(token, 'POST', 'Users', {
    json: {
      schemas: [USER],
      userName,
      externalId: `bjensen-${userName}`,
      name: { formatted: 'Ms. Barbara J Jensen III', familyName: 'Jensen', givenName: 'Barbara' },
    },
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  assert.match(created.headers.get('content-type') ?? '', /^application\/scim\+json/);
  const id = created.body.id as string;
  assert.equal(created.headers.get('location'), `${baseUrl}/scim/v2/Users/${id}`);
  assert.equal(created.headers.get('etag'), created.body.meta.version);
  assert.deepEqual(created.body.meta.resourceType, 'User');

  // §3.4.1, and §3.14's If-None-Match.
  const read = await scim(token, 'GET', `Users/${id}`);
  assert.equal(read.body.userName, userName);
  assert.equal((await scim(token, 'GET', `Users/${id}`, { headers: { 'if-none-match': read.headers.get('etag')! } })).status, 304);

  // §3.4.2's filter, and the other operators a client uses to find people.
  for (const filter of [
    `userName eq "${userName}"`,
    `name.familyName co "ense" and userName sw "bjensen-"`,
    `externalId eq "bjensen-${userName}"`,
    `not (active eq false) and userName ew "${userName.slice(-4)}"`,
  ]) {
    const found = await scim(token, 'GET', `Users?filter=${encodeURIComponent(filter)}&count=10`);
    assert.equal(found.status, 200, filter);
    assert.deepEqual(found.body.schemas, ['urn:ietf:params:scim:api:messages:2.0:ListResponse']);
    assert.ok(
      found.body.Resources.some((u: { id: string }) => u.id === id),
      filter,
    );
  }

  // §3.5.1: PUT replaces; with a stale If-Match it is refused (§3.14: 412).
  const stale = await scim(token, 'PUT', `Users/${id}`, { json: { schemas: [USER], userName }, headers: { 'if-match': 'W/"0"' } });
  assertError(stale, 412);
  const put = await scim(token, 'PUT', `Users/${id}`, {
    json: {
      schemas: [USER],
      id,
      userName,
      externalId: `bjensen-${userName}`,
      name: { formatted: 'Ms. Barbara J Jensen III', familyName: 'Jensen', givenName: 'Barbara' },
      emails: [{ value: `${userName}@example.com`, type: 'work', primary: true }],
    },
    headers: { 'if-match': read.headers.get('etag')! },
  });
  assert.equal(put.status, 200, JSON.stringify(put.body));
  assert.deepEqual(put.body.emails, [{ value: `${userName}@example.com`, type: 'work', primary: true }]);

  // §3.5.2.3: replace a sub-attribute through a value filter; §3.5.2.1 add without a path.
  const patched = await scim(token, 'PATCH', `Users/${id}`, {
    json: {
      schemas: [PATCH],
      Operations: [
        { op: 'replace', path: 'emails[type eq "work"].value', value: `babs-${userName}@example.com` },
        { op: 'add', value: { displayName: 'Babs Jensen', 'name.givenName': 'Babs' } },
      ],
    },
  });
  assert.equal(patched.status, 200, JSON.stringify(patched.body));
  assert.equal(patched.body.emails[0].value, `babs-${userName}@example.com`);
  assert.equal(patched.body.displayName, 'Babs Jensen');
  assert.equal(patched.body.name.givenName, 'Babs');

  // §3.3 for a group with a member; §3.5.2.1 add a member; §3.5.2.2 remove one by a value filter.
  const other = await scim(token, 'POST', 'Users', { json: { schemas: [USER], userName: `jsmith-${unique()}` } });
  const group = await scim(token, 'POST', 'Groups', {
    json: { schemas: [GROUP], displayName: `Tour-Guides-${unique()}`, members: [{ value: id, display: userName }] },
  });
  assert.equal(group.status, 201, JSON.stringify(group.body));
  const added = await scim(token, 'PATCH', `Groups/${group.body.id}`, {
    json: {
      schemas: [PATCH],
      Operations: [{ op: 'add', path: 'members', value: [{ display: other.body.userName, $ref: other.body.meta.location, value: other.body.id }] }],
    },
  });
  assert.deepEqual(added.body.members.map((m: { value: string }) => m.value).sort(), [id, other.body.id].sort());
  const removed = await scim(token, 'PATCH', `Groups/${group.body.id}`, {
    json: { schemas: [PATCH], Operations: [{ op: 'remove', path: `members[value eq "${id}"]` }] },
  });
  assert.deepEqual(
    removed.body.members.map((m: { value: string }) => m.value),
    [other.body.id],
  );
  const member = await scim(token, 'GET', `Users/${other.body.id}`);
  assert.deepEqual(
    member.body.groups.map((g: { value: string }) => g.value),
    [group.body.id],
  );

  // §3.6: DELETE, then the resource is gone.
  assert.equal((await scim(token, 'DELETE', `Users/${id}`)).status, 204);
  assertError(await scim(token, 'GET', `Users/${id}`), 404);
  assert.equal((await scim(token, 'DELETE', `Groups/${group.body.id}`)).status, 204);

  // §4: the discovery endpoints.
  const spc = await scim(token, 'GET', 'ServiceProviderConfig');
  assert.deepEqual([spc.body.patch.supported, spc.body.filter.supported, spc.body.etag.supported, spc.body.bulk.supported], [true, true, true, false]);
  assert.deepEqual(
    (await scim(token, 'GET', 'ResourceTypes')).body.Resources.map((r: { id: string }) => r.id),
    ['User', 'Group'],
  );
  assert.equal((await scim(token, 'GET', `Schemas/${USER}`)).body.name, 'User');
});

test('a provisioning client’s lifecycle: create with a password, the person signs in; deactivated, their tokens end and they cannot sign in; deleted; all audited as the client', async () => {
  const client = await provisioningClient();
  const userName = `lifecycle-${unique()}`;
  const password = `pw-${randomBytes(12).toString('base64url')}`;
  const created = await scim(client.token, 'POST', 'Users', {
    json: {
      schemas: [USER],
      userName,
      password,
      emails: [{ value: `${userName}@example.test`, primary: true }],
      name: { givenName: 'Lee', familyName: 'Cycle' },
    },
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const id = created.body.id as string;

  const app = await makeClient();
  const config = await discover(app);
  const signIn = async () => {
    const { verifier, challenge } = await pkce();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: 'openid profile',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    return { url, verifier };
  };
  const first = await signIn();
  const callback = await authorize(new TestBrowser(baseUrl), first.url, { username: userName, password });
  const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: first.verifier });
  const claims = await oidc.fetchUserInfo(config, tokens.access_token, id);
  assert.equal(claims.given_name, 'Lee');

  const patched = await scim(client.token, 'PATCH', `Users/${id}`, {
    json: { schemas: [PATCH], Operations: [{ op: 'replace', path: 'name.familyName', value: 'Cycled' }] },
  });
  assert.equal(patched.body.name.familyName, 'Cycled');

  // Entra ID's shape of deactivation: no path, a string boolean.
  const deactivated = await scim(client.token, 'PATCH', `Users/${id}`, {
    json: { schemas: [PATCH], Operations: [{ op: 'Replace', value: { active: 'False' } }] },
  });
  assert.equal(deactivated.status, 200, JSON.stringify(deactivated.body));
  assert.equal(deactivated.body.active, false);
  await assert.rejects(oidc.fetchUserInfo(config, tokens.access_token, id), 'the access token ended with the deactivation');
  const again = await signIn();
  const browser = new TestBrowser(baseUrl);
  const page = await browser.navigate(again.url);
  const answer = await browser.submit(await page.response.text(), '/login', { username: userName, password });
  assert.equal(answer.location, undefined, 'a deactivated person is not signed in');

  assert.equal((await scim(client.token, 'DELETE', `Users/${id}`)).status, 204);
  assertError(await scim(client.token, 'GET', `Users/${id}`), 404);

  const events = await database(databaseUrl).prisma.auditEvent.findMany({ where: { targetId: id }, orderBy: { at: 'asc' } });
  const byClient = events.filter((e) => e.actorUsername === `scim:${client.name}`).map((e) => e.action);
  for (const action of ['user.created', 'user.updated', 'user.disabled', 'user.deleted'])
    assert.ok(byClient.includes(action), `${action} by scim:${client.name}: ${byClient}`);
});

test('bad requests get SCIM error bodies with their scimType, never a 500', async () => {
  const { token } = await provisioningClient();
  const user = await scim(token, 'POST', 'Users', { json: { schemas: [USER], userName: `bad-${unique()}` } });
  const id = user.body.id as string;
  const q = (filter: string) => `Users?filter=${encodeURIComponent(filter)}`;
  assertError(await scim(token, 'GET', q('userName eq')), 400, 'invalidFilter');
  assertError(await scim(token, 'GET', q('userName xx "a"')), 400, 'invalidFilter');
  assertError(await scim(token, 'GET', q('(userName eq "a"')), 400, 'invalidFilter');
  assertError(await scim(token, 'GET', q('nickName eq "a"')), 400, 'invalidFilter');
  assertError(await scim(token, 'GET', q('meta.created gt "last week"')), 400, 'invalidFilter');
  assertError(await scim(token, 'GET', 'Users?sortBy=password'), 400, 'invalidValue');
  const patch = (operations: unknown[]) => scim(token, 'PATCH', `Users/${id}`, { json: { schemas: [PATCH], Operations: operations } });
  assertError(await patch([{ op: 'replace', path: 'emails[type eq "work"', value: 'x' }]), 400, 'invalidPath');
  assertError(await patch([{ op: 'replace', path: '9lives', value: 'x' }]), 400, 'invalidPath');
  assertError(await patch([{ op: 'replace', path: 'emails[type eq "home"].value', value: 'x@example.com' }]), 400, 'noTarget');
  assertError(await patch([{ op: 'remove' }]), 400, 'noTarget');
  assertError(await patch([{ op: 'replace', path: 'id', value: 'mine' }]), 400, 'mutability');
  assertError(await patch([{ op: 'replace', path: 'groups', value: [] }]), 400, 'mutability');
  assertError(await patch([{ op: 'rename', path: 'userName', value: 'x' }]), 400, 'invalidValue');
  assertError(await patch([{ op: 'replace', path: 'emails', value: [{ value: 'not an address' }] }]), 400, 'invalidValue');
  assertError(await scim(token, 'PATCH', `Users/${id}`, { json: { Operations: [] } }), 400, 'invalidSyntax');
  assertError(await scim(token, 'POST', 'Users', { raw: '{"userName": ' }), 400, 'invalidSyntax');
  assertError(await scim(token, 'POST', 'Users', { raw: '{}', headers: { 'content-type': 'text/plain' } }), 400, 'invalidSyntax');
  assertError(await scim(token, 'POST', 'Users', { json: { schemas: [USER], userName: user.body.userName } }), 409, 'uniqueness');
  assertError(await scim(token, 'POST', 'Users', { json: [] }), 400, 'invalidValue');
  assertError(await scim(token, 'GET', 'Users/nobody'), 404);
  assertError(await scim(token, 'GET', 'Widgets'), 404);
  assertError(await scim(token, 'POST', 'Bulk', { json: {} }), 501);
  const notAllowed = await scim(token, 'DELETE', 'Users');
  assertError(notAllowed, 405);
  assert.equal(notAllowed.headers.get('allow'), 'GET, POST');
});

test('attributes and excludedAttributes over HTTP: a partial User, a partial list; /Bulk and /Me are 501 with a SCIM error body', async () => {
  const { token } = await provisioningClient();
  const userName = `partial-${unique()}`;
  const created = await scim(token, 'POST', 'Users', {
    json: { schemas: [USER], userName, name: { givenName: 'Ada', familyName: 'Lovelace' }, emails: [{ value: `${userName}@example.com` }] },
  });
  const id = created.body.id as string;
  const read = await scim(token, 'GET', `Users/${id}?attributes=userName,name.givenName`);
  assert.equal(read.status, 200);
  assert.deepEqual(read.body, { schemas: [USER], id, userName, name: { givenName: 'Ada' }, meta: created.body.meta });
  assert.equal(read.headers.get('etag'), created.body.meta.version);
  const list = await scim(token, 'GET', `Users?filter=${encodeURIComponent(`userName eq "${userName}"`)}&excludedAttributes=emails,groups,name`);
  assert.deepEqual(Object.keys(list.body.Resources[0]).sort(), ['active', 'displayName', 'id', 'meta', 'schemas', 'userName']);

  for (const [method, path] of [
    ['POST', 'Bulk'],
    ['GET', 'Me'],
  ]) {
    const answer = await scim(
      token,
      method,
      path,
      method === 'POST' ? { json: { schemas: ['urn:ietf:params:scim:api:messages:2.0:BulkRequest'], Operations: [] } } : {},
    );
    assertError(answer, 501);
    assert.ok(answer.body.detail.length > 0);
  }
});

test('RFC 7644 §3.5.2: its PATCH examples for a group’s members and a User’s emails replayed, each answer a valid SCIM resource (SCIMMY)', async () => {
  const { token } = await provisioningClient();
  const babs = (await scim(token, 'POST', 'Users', { json: { schemas: [USER], userName: `bjensen-${unique()}` } })).body;
  const james = (await scim(token, 'POST', 'Users', { json: { schemas: [USER], userName: `jsmith-${unique()}` } })).body;
  const member = (user: { id: string; userName: string; meta: { location: string } }) => ({ display: user.userName, $ref: user.meta.location, value: user.id });
  const group = (await scim(token, 'POST', 'Groups', { json: { schemas: [GROUP], displayName: `Tour-Guides-${unique()}` } })).body;
  const patch = async (path: string, operations: unknown[], schema: typeof SCIMMY.Schemas.User | typeof SCIMMY.Schemas.Group) => {
    const answer = await scim(token, 'PATCH', path, { json: { schemas: [PATCH], Operations: operations } });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    schema.definition.coerce(answer.body);
    return answer.body;
  };
  const members = (body: { members: { value: string }[] }) => body.members.map((m) => m.value).sort();

  // §3.5.2.1: add a member.
  assert.deepEqual(members(await patch(`Groups/${group.id}`, [{ op: 'add', path: 'members', value: [member(babs)] }], SCIMMY.Schemas.Group)), [babs.id]);
  // §3.5.2.3: replace all members.
  assert.deepEqual(
    members(await patch(`Groups/${group.id}`, [{ op: 'replace', path: 'members', value: [member(babs), member(james)] }], SCIMMY.Schemas.Group)),
    [babs.id, james.id].sort(),
  );
  // §3.5.2.2: remove one member, several, and all of them.
  assert.deepEqual(members(await patch(`Groups/${group.id}`, [{ op: 'remove', path: `members[value eq "${babs.id}"]` }], SCIMMY.Schemas.Group)), [james.id]);
  await patch(`Groups/${group.id}`, [{ op: 'add', path: 'members', value: [member(babs)] }], SCIMMY.Schemas.Group);
  assert.deepEqual(
    members(
      await patch(
        `Groups/${group.id}`,
        [
          { op: 'remove', path: `members[value eq "${babs.id}"]` },
          { op: 'remove', path: `members[value eq "${james.id}"]` },
        ],
        SCIMMY.Schemas.Group,
      ),
    ),
    [],
  );
  await patch(`Groups/${group.id}`, [{ op: 'add', path: 'members', value: [member(babs), member(james)] }], SCIMMY.Schemas.Group);
  assert.deepEqual(members(await patch(`Groups/${group.id}`, [{ op: 'remove', path: 'members' }], SCIMMY.Schemas.Group)), []);
  // §3.5.2.2: replace all members by removing them, then adding a new set.
  assert.deepEqual(
    members(
      await patch(
        `Groups/${group.id}`,
        [
          { op: 'remove', path: 'members' },
          { op: 'add', path: 'members', value: [member(james)] },
        ],
        SCIMMY.Schemas.Group,
      ),
    ),
    [james.id],
  );

  // §3.5.2.3: replace without a path, several emails; Gatehouse keeps the primary one, and no nickName.
  const replaced = await patch(
    `Users/${babs.id}`,
    [
      {
        op: 'replace',
        value: {
          emails: [
            { value: `${babs.userName}@example.com`, type: 'work', primary: true },
            { value: `${babs.userName}@jensen.org`, type: 'home' },
          ],
          nickName: 'Babs',
        },
      },
    ],
    SCIMMY.Schemas.User,
  );
  assert.deepEqual(replaced.emails, [{ value: `${babs.userName}@example.com`, type: 'work', primary: true }]);
  assert.equal(replaced.nickName, undefined);
});

describe('with SCIM off (the default)', () => {
  const own = isolatedDatabase('scim-off');
  let instance: Awaited<ReturnType<typeof startInstance>> | undefined;
  before(async () => {
    // The suite's server has SCIM=on (scripts/test.ts protocolSettings); this instance has the setting's default.
    assert.equal(process.env.SCIM, undefined, 'the test process passes no SCIM setting on to the instance');
    instance = await startInstance({ DATABASE_URL: own.url });
  });
  after(async () => {
    await instance?.stop();
    await closeDatabase(own.url);
    await own.drop();
  });

  test('every path under /scim/v2 answers a plain 404, whatever the method and token; nothing is served or stored', async () => {
    const userName = `off-${unique()}`;
    const paths = [
      '',
      'Users',
      'Users/abc',
      'Users/.search',
      'Groups',
      'Groups/abc',
      'ServiceProviderConfig',
      'Schemas',
      'ResourceTypes',
      'Bulk',
      'Me',
      'No/Such/Path',
    ];
    for (const path of paths) {
      for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) {
        const body = method === 'GET' || method === 'DELETE' ? undefined : JSON.stringify({ schemas: [USER], userName });
        const response = await fetch(new URL(`/scim/v2/${path}`, instance!.url), {
          method,
          headers: { authorization: 'Bearer not-a-token', ...(body ? { 'content-type': 'application/scim+json' } : {}) },
          body,
        });
        const text = await response.text();
        assert.equal(response.status, 404, `${method} /scim/v2/${path}`);
        assert.doesNotMatch(response.headers.get('content-type') ?? '', /scim/, `${method} /scim/v2/${path}`);
        assert.doesNotMatch(text, /urn:ietf:params:scim/, `${method} /scim/v2/${path}: no SCIM body`);
        assert.equal(response.headers.get('www-authenticate'), null, 'no token was asked for');
      }
    }
    assert.equal(await database(own.url).prisma.user.count({ where: { username: userName } }), 0, 'no POST made a User');
  });
});
