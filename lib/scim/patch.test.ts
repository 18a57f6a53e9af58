// PATCH (RFC 7644 §3.5.2) on a representation: the RFC's own operations, Entra ID's and Okta's shapes, and the
// refusals with their scimType.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ScimError } from './errors.ts';
import { applyPatch, parsePath, patchOperations, PATCH_SCHEMA, type PatchRules } from './patch.ts';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const rules: PatchRules = {
  schemas: [USER],
  readOnly: ['id', 'meta', 'groups'],
  multiValued: ['emails', 'members'],
  names: { active: 'active', displayname: 'displayName', members: 'members', emails: 'emails' },
};
const user = () => ({
  schemas: [USER],
  id: 'u1',
  userName: 'bjensen',
  name: { givenName: 'Barbara', familyName: 'Jensen' },
  emails: [{ value: 'bjensen@example.com', type: 'work', primary: true }],
  active: true,
  members: [
    { value: 'a', display: 'A' },
    { value: 'b', display: 'B' },
  ],
  meta: { version: 'W/"1"' },
});
const ops = (...operations: object[]) => patchOperations({ schemas: [PATCH_SCHEMA], Operations: operations });
const scimType = (type: string) => (error: unknown) => error instanceof ScimError && error.scimType === type && error.status === 400;

test('replace, add and remove by path; names and ops ignore case; the schema URN may prefix a path', () => {
  const out = applyPatch(
    user(),
    ops(
      { op: 'Replace', path: 'ACTIVE', value: false },
      { op: 'replace', path: `${USER}:name.givenName`, value: 'Babs' },
      { op: 'add', path: 'displayName', value: 'Babs Jensen' },
      { op: 'remove', path: 'name.familyName' },
    ),
    rules,
  );
  assert.equal(out.active, false);
  assert.deepEqual(out.name, { givenName: 'Babs' });
  assert.equal(out.displayName, 'Babs Jensen');
  assert.equal(user().active, true, 'the input is not changed');
});

test('without a path, the value is an object of attributes, whose keys may be paths (Entra ID)', () => {
  const out = applyPatch(user(), ops({ op: 'replace', value: { active: false, 'name.familyName': 'Doe', [USER]: { displayName: 'X' } } }), rules);
  assert.equal(out.active, false);
  assert.deepEqual(out.name, { givenName: 'Barbara', familyName: 'Doe' });
  assert.equal(out.displayName, 'X');
});

test('multi-valued: add appends without duplicates, a filter selects, remove by filter or by value (RFC 7644 §3.5.2.2, Entra ID)', () => {
  const added = applyPatch(user(), ops({ op: 'add', path: 'members', value: [{ value: 'b' }, { value: 'c' }] }), rules);
  assert.deepEqual(
    (added.members as { value: string }[]).map((m) => m.value),
    ['a', 'b', 'c'],
  );
  const removed = applyPatch(user(), ops({ op: 'remove', path: 'members[value eq "a"]' }), rules);
  assert.deepEqual(
    (removed.members as { value: string }[]).map((m) => m.value),
    ['b'],
  );
  const byValue = applyPatch(user(), ops({ op: 'Remove', path: 'members', value: [{ value: 'b' }] }), rules);
  assert.deepEqual(
    (byValue.members as { value: string }[]).map((m) => m.value),
    ['a'],
  );
  const all = applyPatch(user(), ops({ op: 'remove', path: 'members' }), rules);
  assert.equal(all.members, undefined);
  const sub = applyPatch(user(), ops({ op: 'replace', path: 'emails[type eq "work"].value', value: 'babs@example.com' }), rules);
  assert.deepEqual(sub.emails, [{ value: 'babs@example.com', type: 'work', primary: true }]);
});

test('add through a value filter that matches nothing makes the element the filter describes (Entra ID’s first address)', () => {
  const { emails: _, ...noEmail } = user();
  const out = applyPatch(noEmail, ops({ op: 'Add', path: 'emails[type eq "work"].value', value: 'new@example.com' }), rules);
  assert.deepEqual(out.emails, [{ type: 'work', value: 'new@example.com' }]);
  assert.throws(() => applyPatch(noEmail, ops({ op: 'add', path: 'emails[type co "w"].value', value: 'x' }), rules), scimType('noTarget'));
});

test('refusals carry the RFC scimType: noTarget, mutability, invalidPath, invalidValue, invalidSyntax', () => {
  assert.throws(() => applyPatch(user(), ops({ op: 'replace', path: 'emails[type eq "home"].value', value: 'x' }), rules), scimType('noTarget'));
  assert.throws(() => applyPatch(user(), ops({ op: 'remove' }), rules), scimType('noTarget'));
  assert.throws(() => applyPatch(user(), ops({ op: 'replace', path: 'id', value: 'x' }), rules), scimType('mutability'));
  assert.throws(() => applyPatch(user(), ops({ op: 'replace', path: 'meta.version', value: 'x' }), rules), scimType('mutability'));
  assert.throws(() => applyPatch(user(), ops({ op: 'replace', path: 'emails[type eq', value: 'x' }), rules), scimType('invalidPath'));
  assert.throws(() => applyPatch(user(), ops({ op: 'replace', path: '1bad', value: 'x' }), rules), scimType('invalidPath'));
  assert.throws(() => applyPatch(user(), ops({ op: 'replace', path: 'active[value eq "x"]', value: 'x' }), rules), scimType('invalidPath'));
  assert.throws(() => applyPatch(user(), ops({ op: 'replace', value: 'not an object' }), rules), scimType('invalidValue'));
  assert.throws(() => ops({ op: 'move', path: 'active' }), scimType('invalidValue'));
  assert.throws(() => patchOperations({ Operations: [{ op: 'add' }] }), scimType('invalidSyntax'));
  assert.throws(() => patchOperations({ schemas: [PATCH_SCHEMA], Operations: [] }), scimType('invalidSyntax'));
});

test('paths: attribute, sub-attribute, value filter, both', () => {
  assert.deepEqual(parsePath('userName', [USER]), { attribute: 'username', filter: undefined, sub: undefined });
  assert.equal(parsePath(`${USER}:name.familyName`, [USER]).sub, 'familyname');
  const path = parsePath('members[value eq "2819c223-7f76-453a-919d-413861904646"].display', [USER]);
  assert.equal(path.attribute, 'members');
  assert.deepEqual(path.filter, { op: 'eq', attrPath: 'value', compValue: '2819c223-7f76-453a-919d-413861904646' });
  assert.equal(path.sub, 'display');
});
