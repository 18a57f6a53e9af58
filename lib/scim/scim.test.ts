// The SCIM service provider's use cases on every database, through its endpoint table (lib/scim/protocol.ts):
// RFC 7644's own requests, a provisioning client's lifecycle (create, filter, patch, deactivate, delete), groups
// and their members and external ids, ETags, paging and sorting, partial answers (attributes, excludedAttributes),
// a User's change kept whole or not at all, the refusals' scimType (501 for /Bulk and /Me), the tokens, and the
// audit log naming the client. Every representation answered is checked against SCIMMY's definitions of the core schemas (a kept
// SCIM library's own checks of types, mutability and sub-attributes).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import SCIMMY from 'scimmy';
import { session, tag } from '../account/testing.ts';
import { auditEventsFor } from '../audit/log.ts';
import { findArtifactByUid } from '../db/artifacts.ts';
import { dropRefusal, refuseInserts, testDatabases } from '../db/testing.ts';
import { createUser as createPerson, setRole } from '../users/manage.ts';
import { findCredentials } from '../users/repository.ts';
import { errorBody, ScimError } from './errors.ts';
import { PATCH_SCHEMA } from './patch.ts';
import { serveScim, type ScimRequest } from './protocol.ts';
import { authenticateScimToken, issueScimToken, listScimTokens, revokeScimToken, scimActor } from './tokens.ts';
import type { Database } from '../db/database.ts';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
// biome-ignore lint/suspicious/noExplicitAny: SCIM answers as parsed JSON, read by the paths the assertions name
type Body = Record<string, any>;

for (const store of testDatabases('scim')) {
  describe(store.name, { skip: store.url ? false : 'TEST_DATABASE_URL is not set' }, () => {
    async function client() {
      const db = await store.open();
      const name = `hr-${tag()}`;
      const ctx = {
        db,
        by: { actor: scimActor({ name }), context: { ip: '198.51.100.4', userAgent: 'scim-test' } },
        baseUrl: 'https://id.example.test/scim/v2',
      };
      // `partial`: an answer with attributes left out (attributes, excludedAttributes), which SCIMMY would call incomplete.
      const send = async (method: string, path: string, body?: unknown, extra: Partial<ScimRequest> = {}) => {
        const [pathname, search = ''] = path.split('?');
        return serveScim(ctx, { method, segments: pathname.split('/').filter(Boolean), query: new URLSearchParams(search), body, ...extra });
      };
      const call = async (method: string, path: string, body?: unknown, extra: Partial<ScimRequest> = {}) => conforms(await send(method, path, body, extra));
      // SCIMMY's coerce throws on anything its definition of the schema does not allow.
      const conforms = <A extends { body?: object }>(answer: A): A => {
        const body = answer.body as Body | undefined;
        if (body?.Resources) for (const resource of body.Resources) conforms({ body: resource });
        else if (body?.schemas?.[0] === USER) SCIMMY.Schemas.User.definition.coerce(body);
        else if (body?.schemas?.[0] === GROUP) SCIMMY.Schemas.Group.definition.coerce(body);
        return answer;
      };
      const refused = async (promise: Promise<unknown>, status: number, scimType?: string) =>
        assert.rejects(promise, (e: unknown) => e instanceof ScimError && e.status === status && e.scimType === scimType);
      return { db, name, ctx, call, partial: send, refused };
    }

    test('RFC 7644 §3.3: create a User; read, filter, replace, patch and delete it; every change audited as made by the client', async () => {
      const { db, name, call, refused } = await client();
      const userName = `bjensen-${tag()}`;
      const created = await call('POST', 'Users', {
        schemas: [USER],
        userName,
        externalId: `ext-${userName}`,
        name: { formatted: 'Ms. Barbara J Jensen III', familyName: 'Jensen', givenName: 'Barbara' },
        emails: [{ value: `${userName}@example.com`, type: 'work', primary: true }],
      });
      assert.equal(created.status, 201);
      const user = created.body as Body;
      assert.equal(user.userName, userName);
      assert.equal(user.displayName, 'Ms. Barbara J Jensen III');
      assert.deepEqual(user.name, { formatted: 'Ms. Barbara J Jensen III', givenName: 'Barbara', familyName: 'Jensen' });
      assert.deepEqual(user.emails, [{ value: `${userName}@example.com`, type: 'work', primary: true }]);
      assert.equal(user.active, true);
      assert.equal(created.location, `https://id.example.test/scim/v2/Users/${user.id}`);
      assert.match(created.etag!, /^W\/".+"$/);
      assert.equal((await findCredentials(db, userName))?.passwordHash, null, 'no password: set by invitation or federation');

      // The lookups a client makes before creating: userName (any case), externalId, email.
      for (const filter of [
        `userName eq "${userName.toUpperCase()}"`,
        `externalId eq "ext-${userName}"`,
        `emails[type eq "work" and value eq "${userName}@example.com"]`,
      ]) {
        const list = (await call('GET', `Users?filter=${encodeURIComponent(filter)}`)).body as Body;
        assert.equal(list.totalResults, 1, filter);
        assert.equal(list.Resources[0].id, user.id);
        assert.deepEqual(list.schemas, ['urn:ietf:params:scim:api:messages:2.0:ListResponse']);
      }

      // If-Match: a stale version is refused (412); the current one goes through.
      await refused(
        call(
          'PATCH',
          `Users/${user.id}`,
          { schemas: [PATCH_SCHEMA], Operations: [{ op: 'replace', path: 'displayName', value: 'B' }] },
          { ifMatch: 'W/"stale"' },
        ),
        412,
      );
      const patched = await call(
        'PATCH',
        `Users/${user.id}`,
        {
          schemas: [PATCH_SCHEMA],
          Operations: [
            { op: 'replace', path: 'name.givenName', value: 'Babs' },
            { op: 'replace', value: { displayName: 'Babs Jensen' } },
          ],
        },
        { ifMatch: created.etag },
      );
      assert.equal((patched.body as Body).name.givenName, 'Babs');
      assert.equal((patched.body as Body).displayName, 'Babs Jensen');
      assert.notEqual(patched.etag, created.etag, 'a change gives a new version');

      const replaced = (await call('PUT', `Users/${user.id}`, { schemas: [USER], userName, name: { givenName: 'Barbara' }, emails: [] })).body as Body;
      assert.equal(replaced.emails, undefined, 'PUT replaces: no address given, none kept');
      assert.equal(replaced.externalId, undefined);
      assert.equal(replaced.displayName, 'Barbara');

      assert.equal((await call('DELETE', `Users/${user.id}`)).status, 204);
      await refused(call('GET', `Users/${user.id}`), 404);
      const actions = (await auditEventsFor(db, { targetType: 'user', targetId: user.id })).map((e) => [e.action, e.actor?.username]);
      for (const action of ['user.created', 'user.updated', 'user.deleted'])
        assert.deepEqual(
          actions.find(([a]) => a === action),
          [action, `scim:${name}`],
        );
    });

    test('active false disables the person and ends their sessions; true enables them again', async () => {
      const { db, call } = await client();
      const created = (await call('POST', 'Users', { schemas: [USER], userName: `d-${tag()}`, password: 'a long enough password' })).body as Body;
      const uid = await session(db, created.id);
      const off = (await call('PATCH', `Users/${created.id}`, { schemas: [PATCH_SCHEMA], Operations: [{ op: 'Replace', path: 'active', value: 'False' }] }))
        .body as Body;
      assert.equal(off.active, false);
      assert.equal(await findArtifactByUid(db.sql, 'Session', uid, Date.now()), undefined, 'the session ended');
      assert.equal((await findCredentials(db, created.userName))?.disabled, true);
      const on = (await call('PATCH', `Users/${created.id}`, { schemas: [PATCH_SCHEMA], Operations: [{ op: 'replace', value: { active: true } }] }))
        .body as Body;
      assert.equal(on.active, true);
    });

    test('uniqueness, invalid values and admins’ accounts are refused with their scimType, changing nothing', async () => {
      const { db, call, refused } = await client();
      const userName = `u-${tag()}`;
      const first = (await call('POST', 'Users', { schemas: [USER], userName, externalId: `x-${userName}` })).body as Body;
      await refused(call('POST', 'Users', { schemas: [USER], userName: userName.toUpperCase() }), 409, 'uniqueness');
      await refused(call('POST', 'Users', { schemas: [USER], userName: `v-${tag()}`, externalId: `x-${userName}` }), 409, 'uniqueness');
      await refused(call('POST', 'Users', { schemas: [USER], userName: `w-${tag()}`, emails: [{ value: 'not an address' }] }), 400, 'invalidValue');
      await refused(call('POST', 'Users', { schemas: [USER], userName: 'has space' }), 400, 'invalidValue');
      await refused(call('POST', 'Users', { schemas: [USER] }), 400, 'invalidValue');
      await refused(
        call('PATCH', `Users/${first.id}`, { schemas: [PATCH_SCHEMA], Operations: [{ op: 'replace', path: 'id', value: 'x' }] }),
        400,
        'mutability',
      );
      await refused(
        call('PATCH', `Users/${first.id}`, { schemas: [PATCH_SCHEMA], Operations: [{ op: 'replace', path: 'emails[type eq "home"].value', value: 'a@b.c' }] }),
        400,
        'noTarget',
      );
      await refused(
        call('PATCH', `Users/${first.id}`, { schemas: [PATCH_SCHEMA], Operations: [{ op: 'replace', path: 'emails[type eq', value: 'a@b.c' }] }),
        400,
        'invalidPath',
      );
      await refused(call('GET', 'Users?filter=userName%20eq'), 400, 'invalidFilter');
      await refused(call('GET', 'Users?filter=password%20eq%20%22x%22'), 400, 'invalidFilter');
      await refused(call('GET', 'Users?sortBy=password'), 400, 'invalidValue');
      await refused(call('GET', 'Users/no-such-id'), 404);
      await refused(call('POST', 'Bulk', {}), 501);
      await refused(call('DELETE', 'Users'), 405);

      const admin = await createPerson(db, { username: `a-${tag()}`, password: 'a long enough password' });
      await setRole(db, admin.id, 'admin');
      await refused(
        call('PATCH', `Users/${admin.id}`, {
          schemas: [PATCH_SCHEMA],
          Operations: [{ op: 'replace', path: 'emails', value: [{ value: 'taken@over.example' }] }],
        }),
        403,
      );
      await refused(call('DELETE', `Users/${admin.id}`), 403);
      assert.equal(((await call('GET', `Users/${admin.id}`)).body as Body).emails, undefined, 'nothing changed');
    });

    test('paging and sorting: startIndex, count, sortBy, sortOrder; count=0 counts only', async () => {
      const { call } = await client();
      const prefix = `pg${tag()}`;
      for (const n of [3, 1, 4, 2, 5]) await call('POST', 'Users', { schemas: [USER], userName: `${prefix}-${n}` });
      const filter = encodeURIComponent(`userName sw "${prefix}"`);
      const page = (await call('GET', `Users?filter=${filter}&sortBy=userName&startIndex=2&count=2`)).body as Body;
      assert.equal(page.totalResults, 5);
      assert.equal(page.startIndex, 2);
      assert.equal(page.itemsPerPage, 2);
      assert.deepEqual(
        page.Resources.map((u: Body) => u.userName),
        [`${prefix}-2`, `${prefix}-3`],
      );
      const down = (await call('GET', `Users?filter=${filter}&sortBy=userName&sortOrder=descending&count=1`)).body as Body;
      assert.equal(down.Resources[0].userName, `${prefix}-5`);
      const counted = (await call('GET', `Users?filter=${filter}&count=0`)).body as Body;
      assert.deepEqual([counted.totalResults, counted.Resources.length], [5, 0]);
      const searched = (await call('POST', 'Users/.search', { filter: `userName sw "${prefix}"`, count: 1, sortBy: 'userName' })).body as Body;
      assert.equal(searched.Resources[0].userName, `${prefix}-1`);
    });

    test('groups: create with members, filter, add and remove members (RFC and Entra ID shapes), rename, delete', async () => {
      const { db, call, name, refused } = await client();
      const a = (await call('POST', 'Users', { schemas: [USER], userName: `ga-${tag()}` })).body as Body;
      const b = (await call('POST', 'Users', { schemas: [USER], userName: `gb-${tag()}` })).body as Body;
      const groupName = `Tour-Guides-${tag()}`;
      const created = await call('POST', 'Groups', { schemas: [GROUP], displayName: groupName, members: [{ value: a.id, display: a.userName }] });
      assert.equal(created.status, 201);
      const group = created.body as Body;
      assert.deepEqual(
        group.members.map((m: Body) => m.value),
        [a.id],
      );
      assert.deepEqual(
        ((await call('GET', `Users/${a.id}`)).body as Body).groups.map((g: Body) => g.display),
        [groupName],
      );
      const found = (await call('GET', `Groups?filter=${encodeURIComponent(`displayName eq "${groupName}"`)}`)).body as Body;
      assert.equal(found.Resources[0].id, group.id);
      const byMember = (await call('GET', `Groups?filter=${encodeURIComponent(`members[value eq "${a.id}"]`)}`)).body as Body;
      assert.deepEqual(
        byMember.Resources.map((g: Body) => g.id),
        [group.id],
      );

      const added = (
        await call('PATCH', `Groups/${group.id}`, { schemas: [PATCH_SCHEMA], Operations: [{ op: 'add', path: 'members', value: [{ value: b.id }] }] })
      ).body as Body;
      assert.equal(added.members.length, 2);
      const removed = (
        await call('PATCH', `Groups/${group.id}`, { schemas: [PATCH_SCHEMA], Operations: [{ op: 'remove', path: `members[value eq "${a.id}"]` }] })
      ).body as Body;
      assert.deepEqual(
        removed.members.map((m: Body) => m.value),
        [b.id],
      );
      const entra = (
        await call('PATCH', `Groups/${group.id}`, { schemas: [PATCH_SCHEMA], Operations: [{ op: 'Remove', path: 'members', value: [{ value: b.id }] }] })
      ).body as Body;
      assert.deepEqual(entra.members, []);
      await refused(
        call('PATCH', `Groups/${group.id}`, { schemas: [PATCH_SCHEMA], Operations: [{ op: 'add', path: 'members', value: [{ value: 'nobody' }] }] }),
        400,
        'invalidValue',
      );
      await refused(call('POST', 'Groups', { schemas: [GROUP], displayName: groupName }), 409, 'uniqueness');
      await refused(call('POST', 'Groups', { schemas: [GROUP], displayName: 'has spaces' }), 400, 'invalidValue');

      const renamed = (
        await call('PATCH', `Groups/${group.id}`, { schemas: [PATCH_SCHEMA], Operations: [{ op: 'replace', path: 'displayName', value: `${groupName}-2` }] })
      ).body as Body;
      assert.equal(renamed.displayName, `${groupName}-2`);
      assert.equal((await call('DELETE', `Groups/${group.id}`)).status, 204);
      const actions = (await auditEventsFor(db, { targetType: 'group', targetId: group.id })).map((e) => e.action);
      for (const action of ['group.created', 'group.member_added', 'group.member_removed', 'group.renamed', 'group.deleted'])
        assert.ok(actions.includes(action as never), action);
      assert.ok((await auditEventsFor(db, { targetType: 'group', targetId: group.id })).every((e) => e.actor?.username === `scim:${name}`));
    });

    test('attributes and excludedAttributes (RFC 7644 §3.9) on a read, a list, a .search and a write; id, schemas and meta always', async () => {
      const { call, partial } = await client();
      const userName = `attr-${tag()}`;
      const created = (
        await partial('POST', `Users?attributes=userName`, {
          schemas: [USER],
          userName,
          name: { givenName: 'Ada', familyName: 'Lovelace' },
          emails: [{ value: `${userName}@example.com`, type: 'work', primary: true }],
        })
      ).body as Body;
      assert.deepEqual(Object.keys(created).sort(), ['id', 'meta', 'schemas', 'userName']);
      const read = await partial('GET', `Users/${created.id}?attributes=name.givenName,emails.value,nickName`);
      assert.deepEqual((read.body as Body).name, { givenName: 'Ada' });
      assert.deepEqual((read.body as Body).emails, [{ value: `${userName}@example.com` }]);
      assert.equal((read.body as Body).userName, undefined);
      assert.equal(read.etag, created.meta.version, 'the ETag is the whole resource’s version');
      const without = (await partial('GET', `Users/${created.id}?excludedAttributes=groups,name,id`)).body as Body;
      assert.deepEqual([without.id, without.name, without.groups, without.userName], [created.id, undefined, undefined, userName]);
      const filter = encodeURIComponent(`userName eq "${userName}"`);
      const list = (await partial('GET', `Users?filter=${filter}&attributes=${encodeURIComponent(`${USER}:userName`)}`)).body as Body;
      assert.deepEqual(Object.keys(list.Resources[0]).sort(), ['id', 'meta', 'schemas', 'userName']);
      assert.equal(list.totalResults, 1);
      const searched = (await partial('POST', 'Users/.search', { filter: `userName eq "${userName}"`, excludedAttributes: ['emails', 'name.familyName'] }))
        .body as Body;
      assert.deepEqual([searched.Resources[0].emails, searched.Resources[0].name], [undefined, { formatted: 'Ada Lovelace', givenName: 'Ada' }]);
      const group = (await call('POST', 'Groups', { schemas: [GROUP], displayName: `Attr-${tag()}`, members: [{ value: created.id }] })).body as Body;
      const shown = (await partial('GET', `Groups/${group.id}?attributes=displayName`)).body as Body;
      assert.deepEqual(Object.keys(shown).sort(), ['displayName', 'id', 'meta', 'schemas']);
    });

    test('a group’s externalId: kept, returned, found with eq, changed, cleared by a PUT without it, unique', async () => {
      const { db, call, refused } = await client();
      const externalId = `ext-${tag()}`;
      const created = (await call('POST', 'Groups', { schemas: [GROUP], displayName: `Ext-${tag()}`, externalId })).body as Body;
      assert.equal(created.externalId, externalId);
      const found = (await call('GET', `Groups?filter=${encodeURIComponent(`externalId eq "${externalId}"`)}`)).body as Body;
      assert.deepEqual(
        found.Resources.map((g: Body) => g.id),
        [created.id],
      );
      await refused(call('POST', 'Groups', { schemas: [GROUP], displayName: `Ext-${tag()}`, externalId }), 409, 'uniqueness');
      const patched = (
        await call('PATCH', `Groups/${created.id}`, { schemas: [PATCH_SCHEMA], Operations: [{ op: 'replace', path: 'externalId', value: `${externalId}-2` }] })
      ).body as Body;
      assert.equal(patched.externalId, `${externalId}-2`);
      assert.notEqual(patched.meta.version, created.meta.version);
      const other = (await call('POST', 'Groups', { schemas: [GROUP], displayName: `Ext-${tag()}` })).body as Body;
      await refused(call('PUT', `Groups/${other.id}`, { schemas: [GROUP], displayName: `Renamed-${tag()}`, externalId: `${externalId}-2` }), 409, 'uniqueness');
      assert.equal(((await call('GET', `Groups/${other.id}`)).body as Body).displayName, other.displayName, 'refused before the rename');
      const cleared = (await call('PUT', `Groups/${created.id}`, { schemas: [GROUP], displayName: created.displayName })).body as Body;
      assert.equal(cleared.externalId, undefined);
      const actions = (await auditEventsFor(db, { targetType: 'group', targetId: created.id })).map((e) => e.action);
      assert.equal(actions.filter((a) => a === 'group.updated').length, 3, 'set, changed, cleared');
    });

    test('a PATCH or PUT of a User is all or nothing: a taken userName or a bad value late in it leaves the person as they were', async () => {
      const { db, call, refused } = await client();
      const taken = (await call('POST', 'Users', { schemas: [USER], userName: `taken-${tag()}`, emails: [{ value: `taken-${tag()}@example.com` }] }))
        .body as Body;
      const userName = `whole-${tag()}`;
      const before = await call('POST', 'Users', {
        schemas: [USER],
        userName,
        externalId: `ext-${userName}`,
        name: { givenName: 'Grace', familyName: 'Hopper' },
        emails: [{ value: `${userName}@example.com`, primary: true }],
        locale: 'en-US',
      });
      const id = (before.body as Body).id;
      const changes = [
        { op: 'replace', path: 'displayName', value: 'Amazing Grace' },
        { op: 'replace', path: 'name.givenName', value: 'Gracie' },
        { op: 'replace', path: 'externalId', value: `ext2-${userName}` },
        { op: 'replace', path: 'emails', value: [{ value: `new-${userName}@example.com`, primary: true }] },
        { op: 'replace', path: 'active', value: false },
      ];
      const unchanged = async () => {
        const now = await call('GET', `Users/${id}`);
        assert.equal(now.etag, before.etag, JSON.stringify(now.body));
        assert.deepEqual(now.body, before.body);
      };
      await refused(
        call('PATCH', `Users/${id}`, { schemas: [PATCH_SCHEMA], Operations: [...changes, { op: 'replace', path: 'userName', value: taken.userName }] }),
        409,
        'uniqueness',
      );
      await unchanged();
      await refused(
        call('PATCH', `Users/${id}`, {
          schemas: [PATCH_SCHEMA],
          Operations: [...changes, { op: 'replace', path: 'userName', value: `renamed-${userName}` }, { op: 'replace', path: 'emails', value: taken.emails }],
        }),
        409,
        'uniqueness',
      );
      await unchanged();
      await refused(
        call('PATCH', `Users/${id}`, { schemas: [PATCH_SCHEMA], Operations: [...changes, { op: 'replace', path: 'locale', value: 'not a locale' }] }),
        400,
        'invalidValue',
      );
      await unchanged();
      await refused(
        call('PUT', `Users/${id}`, { schemas: [USER], userName: `renamed-${userName}`, displayName: 'Amazing Grace', password: 'short' }),
        400,
        'invalidValue',
      );
      await unchanged();
      assert.equal((await findCredentials(db, userName))?.disabled, false);

      // The same changes without the failing one go through together, audited once.
      const updates = async () => (await auditEventsFor(db, { targetType: 'user', targetId: id })).filter((e) => e.action === 'user.updated');
      const earlier = (await updates()).map((e) => e.id);
      const done = (await call('PATCH', `Users/${id}`, { schemas: [PATCH_SCHEMA], Operations: changes })).body as Body;
      assert.deepEqual(
        [done.displayName, done.name.givenName, done.externalId, done.emails[0].value, done.active],
        ['Amazing Grace', 'Gracie', `ext2-${userName}`, `new-${userName}@example.com`, false],
      );
      const updated = (await updates()).filter((e) => !earlier.includes(e.id));
      assert.deepEqual(
        updated.map((e) => (e.details.changed as string[]).sort()),
        [['email', 'externalId', 'givenName', 'name']],
      );
    });

    test('a Group PATCH of several changes that fails midway leaves the group byte-identical, ETag included; its PUT likewise', async () => {
      const { db, call } = await client();
      const a = (await call('POST', 'Users', { schemas: [USER], userName: `wa-${tag()}` })).body as Body;
      const b = (await call('POST', 'Users', { schemas: [USER], userName: `wb-${tag()}` })).body as Body;
      const displayName = `Whole-${tag()}`;
      const created = (await call('POST', 'Groups', { schemas: [GROUP], displayName, externalId: `ext-${displayName}`, members: [{ value: a.id }] }))
        .body as Body;
      const before = await call('GET', `Groups/${created.id}`);
      const audited = async () => (await auditEventsFor(db, { targetType: 'group', targetId: created.id }, 100)).length;
      const entries = await audited();
      // Every check passes; then b's joining fails inside the write, after the rename, the external id and a's leaving.
      const t = tag();
      await refuseInserts(db, t, 'group_members', `NEW.user_id = '${b.id}'`);
      const operations = [
        { op: 'replace', path: 'displayName', value: `${displayName}-renamed` },
        { op: 'replace', path: 'externalId', value: `ext-${displayName}-2` },
        { op: 'remove', path: `members[value eq "${a.id}"]` },
        { op: 'add', path: 'members', value: [{ value: b.id }] },
      ];
      await assert.rejects(call('PATCH', `Groups/${created.id}`, { schemas: [PATCH_SCHEMA], Operations: operations }, { ifMatch: before.etag }));
      const after = await call('GET', `Groups/${created.id}`);
      assert.equal(JSON.stringify(after.body), JSON.stringify(before.body), 'name, external id, members and meta as they were');
      assert.equal(after.etag, before.etag);
      await assert.rejects(
        call('PUT', `Groups/${created.id}`, { schemas: [GROUP], displayName: `${displayName}-put`, members: [{ value: b.id }] }, { ifMatch: before.etag }),
      );
      assert.equal(JSON.stringify((await call('GET', `Groups/${created.id}`)).body), JSON.stringify(before.body));
      assert.equal(await audited(), entries, 'nothing recorded of what was not made');
      await dropRefusal(db, t, 'group_members');

      const done = (await call('PATCH', `Groups/${created.id}`, { schemas: [PATCH_SCHEMA], Operations: operations }, { ifMatch: before.etag })).body as Body;
      assert.deepEqual([done.displayName, done.externalId, done.members.map((m: Body) => m.value)], [`${displayName}-renamed`, `ext-${displayName}-2`, [b.id]]);
      assert.notEqual(done.meta.version, created.meta.version);
    });

    test('a POST /Users whose writes fail midway leaves no one behind', async () => {
      const { db, call } = await client();
      const userName = `half-${tag()}`;
      const t = tag();
      // The person's row is written first; their external id's row then fails.
      await refuseInserts(db, t, 'user_imports', 'true');
      const body = {
        schemas: [USER],
        userName,
        externalId: `ext-${userName}`,
        name: { givenName: 'Half', familyName: 'Made' },
        emails: [{ value: `${userName}@example.com` }],
        active: false,
      };
      await assert.rejects(call('POST', 'Users', body));
      await dropRefusal(db, t, 'user_imports');
      assert.equal(await db.prisma.user.count({ where: { username: userName } }), 0);
      const listed = (await call('GET', `Users?filter=${encodeURIComponent(`userName eq "${userName}"`)}`)).body as Body;
      assert.equal(listed.totalResults, 0);
      assert.equal(await db.prisma.auditEvent.count({ where: { action: 'user.created', targetLabel: userName } }), 0, 'nor an entry saying someone was made');

      const made = await call('POST', 'Users', body);
      assert.equal(made.status, 201, 'the same request goes through once nothing fails');
      const user = made.body as Body;
      assert.deepEqual([user.externalId, user.name.givenName, user.active], [`ext-${userName}`, 'Half', false]);
      assert.deepEqual((await auditEventsFor(db, { targetType: 'user', targetId: user.id })).map((e) => e.action).sort(), ['user.created', 'user.disabled']);
    });

    test('/Bulk and /Me answer 501 with a SCIM error body; ServiceProviderConfig says bulk is unsupported', async () => {
      const { call } = await client();
      for (const [method, path] of [
        ['POST', 'Bulk'],
        ['GET', 'Me'],
        ['PATCH', 'Me'],
      ]) {
        const error = await call(method, path, method === 'GET' ? undefined : {}).then(
          () => assert.fail(`${method} ${path} answered`),
          (e: unknown) => e,
        );
        assert.ok(error instanceof ScimError);
        const body = errorBody(error);
        assert.deepEqual([body.schemas, body.status], [['urn:ietf:params:scim:api:messages:2.0:Error'], '501']);
        assert.match(body.detail, path === 'Bulk' ? /bulk/ : /Me/);
      }
      const spc = (await call('GET', 'ServiceProviderConfig')).body as Body;
      assert.deepEqual(spc.bulk, { supported: false, maxOperations: 0, maxPayloadSize: 0 });
    });

    test('discovery: ServiceProviderConfig, Schemas, ResourceTypes', async () => {
      const { call, refused } = await client();
      const spc = (await call('GET', 'ServiceProviderConfig')).body as Body;
      assert.equal(spc.patch.supported, true);
      assert.equal(spc.bulk.supported, false);
      assert.equal(spc.etag.supported, true);
      const schemas = (await call('GET', 'Schemas')).body as Body;
      assert.deepEqual(
        schemas.Resources.map((s: Body) => s.id),
        [USER, GROUP],
      );
      assert.equal(((await call('GET', `Schemas/${USER}`)).body as Body).name, 'User');
      assert.equal(((await call('GET', 'ResourceTypes/Group')).body as Body).endpoint, '/Groups');
      await refused(call('GET', 'ResourceTypes/Device'), 404);
    });

    test('tokens: shown once, stored as a hash, revoked ones refused; issuing and revoking audited', async () => {
      const db: Database = await store.open();
      const by = { actor: { id: null, username: 'cli' } };
      const { token, record } = await issueScimToken(db, { name: 'Okta' }, by);
      assert.equal((await authenticateScimToken(db, token, Date.now()))?.id, record.id);
      assert.equal(await authenticateScimToken(db, `${token}x`, Date.now()), undefined);
      const row = await db.prisma.scimToken.findUnique({ where: { id: record.id } });
      assert.ok(row && row.tokenHash !== token && !JSON.stringify(row).includes(token));
      assert.ok((await listScimTokens(db)).some((t) => t.id === record.id && t.lastUsedAt !== null));
      await revokeScimToken(db, record.id, { now: Date.now(), by });
      assert.equal(await authenticateScimToken(db, token, Date.now()), undefined);
      const actions = (await auditEventsFor(db, { targetType: 'scim_token', targetId: record.id })).map((e) => e.action);
      assert.deepEqual(actions.sort(), ['scim_token.issued', 'scim_token.revoked']);
    });
  });
}
