// The admin API's translation of the one error model: status, description and headers shown, everything else only logged.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { z } from 'zod';
import { ServiceError, Unauthorized } from '../../platform/errors.ts';
import { memoryLog } from '../../ops/log.ts';
import { errorBodySchema, errorResponse } from './errors.ts';

test('a ServiceError answers its code, status, description and headers, never cached, with the request id', async () => {
  const { log, lines } = memoryLog();
  const response = errorResponse(new Unauthorized('no token', { headers: { 'www-authenticate': 'Bearer realm="x"' } }), 'req-1', log);
  assert.equal(lines.length, 0, 'an expected failure is not logged');
  assert.equal(response.status, 401);
  assert.equal(response.headers.get('www-authenticate'), 'Bearer realm="x"');
  assert.equal(response.headers.get('cache-control'), 'no-store');
  assert.equal(response.headers.get('x-request-id'), 'req-1');
  assert.match(response.headers.get('content-type')!, /^application\/json/);
  const body = await response.json();
  assert.deepEqual(body, { error: 'unauthorized', error_description: 'no token' });
  assert.ok(errorBodySchema.safeParse(body).success);
});

test('anything else is a server_error that says only its request id; the error itself goes to the log', async () => {
  const { log, lines } = memoryLog();
  const secretish = new Error('connect ECONNREFUSED postgresql://gatehouse:hunter2@db/gatehouse');
  for (const error of [secretish, new z.ZodError([]), 'a string', new ServiceError('server_error', 'internal detail')]) {
    const response = errorResponse(error, 'req-2', log);
    assert.equal(response.status, 500);
    const body = await response.json();
    assert.deepEqual(body, { error: 'server_error', error_description: 'an unexpected error occurred (request id req-2)' });
  }
  assert.equal(lines.length, 4);
  assert.equal(lines[0].request_id, 'req-2');
  assert.equal(lines[0].msg, 'server_error');
  assert.match((lines[0].err as { message: string }).message, /ECONNREFUSED/);
});
