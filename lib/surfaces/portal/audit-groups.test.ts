// The audit log's rows: neighbours saying the same thing within minutes are one row with a count; anything different starts a new row.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AuditEventRecord } from '../../audit/log.ts';
import { groupAuditEvents } from './audit-groups.ts';

const at = (minute: number) => new Date(Date.UTC(2026, 10, 27, 9, 0) - minute * 60_000);
const failed = (minute: number, over: Partial<AuditEventRecord> = {}): AuditEventRecord => ({
  id: `e${minute}-${Math.random()}`,
  at: at(minute),
  actor: null,
  action: 'sign_in.failed',
  target: { type: 'user', id: 'u1', label: 'alice' },
  ip: '203.0.113.7',
  userAgent: 'Firefox',
  details: { username: 'alice', reason: 'wrong_password' },
  ...over,
});

test('ten identical failures a minute apart are one row of ten, from the oldest to the newest', () => {
  const rows = groupAuditEvents(Array.from({ length: 10 }, (_, i) => failed(i)));
  assert.equal(rows.length, 1);
  assert.equal(rows[0]?.count, 10);
  assert.deepEqual(rows[0]?.since, at(9));
  assert.deepEqual(rows[0]?.event.at, at(0));
});

test('another reason, target, address or action, or a gap past the window, starts a new row', () => {
  const rows = groupAuditEvents([
    failed(0),
    failed(1),
    failed(2, { details: { username: 'alice', reason: 'throttled' } }),
    failed(3, { target: { type: 'user', id: 'u2', label: 'bob' } }),
    failed(4, { ip: '198.51.100.1' }),
    failed(5, { action: 'sign_in.succeeded', details: {} }),
    failed(6),
    failed(30),
  ]);
  assert.deepEqual(
    rows.map((r) => r.count),
    [2, 1, 1, 1, 1, 1, 1],
  );
  assert.equal(rows[0]?.since?.getTime(), at(1).getTime());
  assert.equal(rows[1]?.since, undefined, 'a row of one has no since');
});

test('an entry that already stands for several (unknown usernames, counted per source) adds its count', () => {
  const unknown = (minute: number, count: number) => failed(minute, { target: null, details: { reason: 'unknown_user', count } });
  const rows = groupAuditEvents([unknown(0, 4), unknown(1, 3)]);
  assert.equal(rows.length, 1);
  assert.equal(rows[0]?.count, 7);
});
