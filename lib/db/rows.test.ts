import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { column, epochMs } from './rows.ts';

// The raw driver's column lists are built from field names (lib/db/rows.ts): every @map must be the field in snake_case.
test('every mapped column of the schema is its field name in snake_case', () => {
  const schema = readFileSync(new URL('../../prisma/schema/models.prisma', import.meta.url), 'utf8');
  const fields = [...schema.matchAll(/^\s+(\w+)\s+\S+.*@map\("(\w+)"\)/gm)];
  assert.ok(fields.length > 20, 'the schema maps its columns');
  for (const [, field, mapped] of fields) assert.equal(column(field), mapped, field);
  assert.equal(column('id'), 'id');
});

test('a raw DateTime reads as the UTC instant Prisma wrote, whatever the host time zone: a PostgreSQL timestamp, an ISO string, epoch ms', () => {
  // node-postgres builds a `timestamp without time zone` from local wall-clock fields, which hold the UTC ones.
  assert.equal(epochMs(new Date(2026, 0, 2, 3, 4, 5, 6)), Date.UTC(2026, 0, 2, 3, 4, 5, 6));
  assert.equal(epochMs('2026-01-02T03:04:05.006Z'), Date.UTC(2026, 0, 2, 3, 4, 5, 6));
  assert.equal(epochMs(1_767_323_045_006), 1_767_323_045_006);
  assert.equal(epochMs(null), 0);
});
