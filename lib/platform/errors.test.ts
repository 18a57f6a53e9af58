// The use cases' one error model: closed codes, their statuses, what is shown; and how a validation failure reads.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { z } from 'zod';
import {
  Conflict,
  describeIssues,
  ERRORS,
  Forbidden,
  InvalidRequest,
  issueMessages,
  MethodNotAllowed,
  NotFound,
  parseInput,
  ServiceError,
  Unauthorized,
} from './errors.ts';

test('each code has its status; only server_error is never shown', () => {
  assert.deepEqual(Object.fromEntries(Object.entries(ERRORS).map(([code, { status, shown }]) => [code, [status, shown]])), {
    invalid_request: [400, true],
    unauthorized: [401, true],
    forbidden: [403, true],
    not_found: [404, true],
    conflict: [409, true],
    method_not_allowed: [405, true],
    server_error: [500, false],
  });
});

test('each class carries its code, status and name; all are ServiceErrors', () => {
  for (const [error, code, status] of [
    [new InvalidRequest('x'), 'invalid_request', 400],
    [new Unauthorized('x'), 'unauthorized', 401],
    [new Forbidden('x'), 'forbidden', 403],
    [new NotFound('x'), 'not_found', 404],
    [new Conflict('x', { field: 'email' }), 'conflict', 409],
    [new MethodNotAllowed('x'), 'method_not_allowed', 405],
  ] as const) {
    assert.ok(error instanceof ServiceError);
    assert.deepEqual([error.code, error.status, error.shown, error.name], [code, status, true, error.constructor.name]);
  }
  assert.equal(new Conflict('taken', { field: 'email' }).field, 'email');
});

test('validation issues name the field as on the wire, with where it was', () => {
  const schema = z.strictObject({ redirectUris: z.array(z.url()), name: z.string().min(1, 'name is required') });
  const result = schema.safeParse({ redirectUris: ['x'], name: '', extra: 1 });
  assert.ok(!result.success);
  const text = describeIssues(result.error, { redirectUris: 'redirect_uris', name: 'client_name' }, 'body');
  assert.match(text, /^body\.redirect_uris\.0: /);
  assert.match(text, /body\.client_name: name is required/);
  assert.match(text, /Unrecognized key: "extra"/);
  assert.deepEqual(
    issueMessages(result.error).map(([field]) => field),
    ['redirectUris.0', 'name', ''],
  );
});

test('parseInput returns the output, or throws an InvalidRequest holding the issues and the field of a bare value', () => {
  assert.equal(parseInput(z.string().trim(), ' a '), 'a');
  assert.throws(
    () => parseInput(z.string().min(3, 'too short'), 'a', 'password'),
    (e: unknown) => e instanceof InvalidRequest && e.message === 'too short' && e.field === 'password' && e.validation?.issues.length === 1,
  );
});
