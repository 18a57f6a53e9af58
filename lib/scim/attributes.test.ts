// Partial representations (RFC 7644 §3.4.2.5, §3.9): attributes and excludedAttributes, sub-attributes of single-
// and multi-valued attributes, the schema's URN, id/schemas/meta always kept, unknown names ignored.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { attributeSelection, selectAttributes } from './attributes.ts';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const user = () => ({
  schemas: [USER],
  id: 'u1',
  userName: 'bjensen',
  name: { formatted: 'Barbara Jensen', givenName: 'Barbara', familyName: 'Jensen' },
  emails: [{ value: 'bjensen@example.com', type: 'work', primary: true }],
  active: true,
  groups: [{ value: 'g1', display: 'Tour-Guides' }],
  meta: { resourceType: 'User', version: 'W/"1"' },
});
const select = (query: Record<string, unknown>) => selectAttributes(user(), attributeSelection(query), USER);

test('attributes: only those asked, with id, schemas and meta; sub-attributes of complex and multi-valued ones', () => {
  assert.deepEqual(select({ attributes: 'userName,name.givenName,emails.value' }), {
    schemas: [USER],
    id: 'u1',
    userName: 'bjensen',
    name: { givenName: 'Barbara' },
    emails: [{ value: 'bjensen@example.com' }],
    meta: { resourceType: 'User', version: 'W/"1"' },
  });
  // Names ignore case and may carry the schema's URN; a whole attribute beside one of its sub-attributes is whole.
  assert.deepEqual(Object.keys(select({ Attributes: `${USER}:USERNAME, name, name.givenName` })), ['schemas', 'id', 'userName', 'name', 'meta']);
  assert.deepEqual(select({ attributes: 'name,name.givenName' }).name, user().name);
});

test('excludedAttributes: those left out, sub-attributes too; id, schemas and meta stay', () => {
  const answer = select({ excludedAttributes: 'groups,emails,name.familyName,id,meta,schemas' });
  assert.deepEqual(Object.keys(answer), ['schemas', 'id', 'userName', 'name', 'active', 'meta']);
  assert.deepEqual(answer.name, { formatted: 'Barbara Jensen', givenName: 'Barbara' });
  assert.deepEqual(select({ excludedAttributes: 'emails.type,emails.primary' }).emails, [{ value: 'bjensen@example.com' }]);
});

test('unknown names are ignored (RFC 7644 §3.4.2.5); a .search body gives lists; nothing asked is the whole resource', () => {
  assert.deepEqual(Object.keys(select({ attributes: 'nickName,foo.bar,urn:example:ext:1.0:User:x' })), ['schemas', 'id', 'meta']);
  assert.deepEqual(select({ excludedAttributes: 'nickName' }), user());
  assert.deepEqual(Object.keys(select({ attributes: ['userName', 7, 'active'] })), ['schemas', 'id', 'userName', 'active', 'meta']);
  assert.deepEqual(select({}), user());
  assert.deepEqual(select({ attributes: ' , ' }), user());
});
