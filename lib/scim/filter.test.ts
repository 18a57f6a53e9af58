// SCIM filters (RFC 7644 §3.4.2.2) as Prisma wheres: the RFC's examples parse, the lookups provisioning clients
// make are indexed equalities, values stay values (never SQL), and what is not mapped is an invalidFilter.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ScimError } from './errors.ts';
import { GROUP_SCHEMA, groupAttributeWhere, parseFilter, toWhere, USER_SCHEMA, userAttributeWhere } from './filter.ts';

const users = (text: string, kind: 'sqlite' | 'postgresql' = 'sqlite') => toWhere(parseFilter(text), userAttributeWhere(kind), USER_SCHEMA);
const invalidFilter = (error: unknown) => error instanceof ScimError && error.scimType === 'invalidFilter' && error.status === 400;

test('the lookups by userName, externalId and email are equalities on indexed columns', () => {
  assert.deepEqual(users('userName eq "BJensen"'), { usernameKey: 'bjensen' });
  assert.deepEqual(users(`${USER_SCHEMA}:userName eq "bjensen"`), { usernameKey: 'bjensen' });
  assert.deepEqual(users('externalId eq "701984"'), { imported: { is: { externalId: '701984' } } });
  assert.deepEqual(users('emails eq "BJ@Example.com"'), { OR: [{ email: 'BJ@Example.com' }, { email: 'bj@example.com' }] });
  assert.deepEqual(users('emails[value eq "bj@example.com"]'), { OR: [{ email: 'bj@example.com' }, { email: 'bj@example.com' }] });
  assert.deepEqual(users('id eq "x"'), { id: 'x' });
});

test('sw, ew, co escape LIKE wildcards and ignore case (PostgreSQL: insensitive mode)', () => {
  assert.deepEqual(users('name.familyName co "O\'Ma_l%"'), { familyName: { contains: "O'Ma\\_l\\%" } });
  assert.deepEqual(users('userName sw "J"', 'postgresql'), { username: { startsWith: 'J', mode: 'insensitive' } });
  assert.deepEqual(users('emails.value ew "@example.com"'), { email: { endsWith: '@example.com' } });
});

test('and, or, not, parentheses, pr, booleans and dates (RFC 7644 §3.4.2.2 examples)', () => {
  assert.deepEqual(users('title pr and userType eq "Employee"'.replace('title', 'displayName').replace('userType', 'locale')), {
    AND: [{ NOT: { name: null } }, { locale: 'Employee' }],
  });
  assert.deepEqual(users('userName eq "a" or not (active eq false)'), { OR: [{ usernameKey: 'a' }, { NOT: { disabled: true } }] });
  assert.deepEqual(users('meta.lastModified gt "2011-05-13T04:42:34Z"'), { updatedAt: { gt: new Date('2011-05-13T04:42:34Z') } });
  assert.deepEqual(users('meta.created le "2011-05-13T04:42:34Z"'), { createdAt: { lte: new Date('2011-05-13T04:42:34Z') } });
  assert.deepEqual(users('active ne true'), { disabled: true });
  assert.deepEqual(users('displayName ne "x"'), { OR: [{ name: null }, { NOT: { name: 'x' } }] });
});

test('bad filters are invalidFilter: syntax, unknown attributes, wrong value types, injection attempts stay values', () => {
  for (const bad of [
    'userName eq',
    'userName eq "a" and',
    '(userName eq "a"',
    'title eq "x"',
    'password eq "x"',
    'active eq "yes"',
    'meta.created gt "yesterday"',
    'userName eq 12',
    'emails.type co "w"',
    'x'.repeat(3000),
  ]) {
    assert.throws(() => users(bad), invalidFilter, bad);
  }
  // A quote cannot end the value early: the parser's string is the whole JSON string, bound as a parameter.
  assert.deepEqual(users('userName eq "x\\" or 1=1 --"'), { usernameKey: 'x" or 1=1 --' });
});

test('groups: displayName and members', () => {
  const groups = (text: string) => toWhere(parseFilter(text), groupAttributeWhere('sqlite'), GROUP_SCHEMA);
  assert.deepEqual(groups('displayName eq "Tour-Guides"'), { name: 'Tour-Guides' });
  assert.deepEqual(groups('members[value eq "u1"]'), { members: { some: { userId: 'u1' } } });
  assert.throws(() => groups('members co "u"'), invalidFilter);
});
