import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { column } from './rows.ts';

// The raw driver's column lists are built from field names (lib/db/rows.ts): every @map must be the field in snake_case.
test('every mapped column of the schema is its field name in snake_case', () => {
  const schema = readFileSync(new URL('../../prisma/schema/models.prisma', import.meta.url), 'utf8');
  const fields = [...schema.matchAll(/^\s+(\w+)\s+\S+.*@map\("(\w+)"\)/gm)];
  assert.ok(fields.length > 20, 'the schema maps its columns');
  for (const [, field, mapped] of fields) assert.equal(column(field), mapped, field);
  assert.equal(column('id'), 'id');
});
