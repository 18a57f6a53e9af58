// The admin API's error model: closed codes, their statuses, what is shown and what is only logged.
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { z } from 'zod';
import { API_ERRORS, ApiError, describeIssues, errorBodySchema, errorResponse } from './errors.ts';

function quietly(t: TestContext): string[] {
  const lines: string[] = [];
  t.mock.method(console, 'error', (...args: unknown[]) => void lines.push(args.map(String).join(' ')));
  return lines;
}

test('each code has its status; only server_error is never shown', () => {
  assert.deepEqual(
    Object.fromEntries(Object.entries(API_ERRORS).map(([code, { status, shown }]) => [code, [status, shown]])),
    { invalid_request: [400, true], unauthorized: [401, true], forbidden: [403, true], not_found: [404, true], conflict: [409, true], server_error: [500, false] },
  );
});

test('an ApiError answers its code, status, description and headers, never cached, with the request id', async () => {
  const response = errorResponse(new ApiError('unauthorized', 'no token', { 'www-authenticate': 'Bearer realm="x"' }), 'req-1');
  assert.equal(response.status, 401);
  assert.equal(response.headers.get('www-authenticate'), 'Bearer realm="x"');
  assert.equal(response.headers.get('cache-control'), 'no-store');
  assert.equal(response.headers.get('x-request-id'), 'req-1');
  assert.match(response.headers.get('content-type')!, /^application\/json/);
  const body = await response.json();
  assert.deepEqual(body, { error: 'unauthorized', error_description: 'no token' });
  assert.ok(errorBodySchema.safeParse(body).success);
});

test('anything else is a server_error that says only its request id; the error itself goes to the log', async (t) => {
  const log = quietly(t);
  const secretish = new Error('connect ECONNREFUSED postgresql://gatehouse:hunter2@db/gatehouse');
  for (const error of [secretish, new z.ZodError([]), 'a string', new ApiError('server_error', 'internal detail')]) {
    const response = errorResponse(error, 'req-2');
    assert.equal(response.status, 500);
    const body = await response.json();
    assert.deepEqual(body, { error: 'server_error', error_description: 'an unexpected error occurred (request id req-2)' });
  }
  assert.equal(log.length, 4);
  assert.match(log[0], /request_id=req-2 .*ECONNREFUSED/);
});

test('validation issues name the field as on the wire, with where it was', () => {
  const schema = z.strictObject({ redirectUris: z.array(z.url()), name: z.string().min(1, 'name is required') });
  const result = schema.safeParse({ redirectUris: ['x'], name: '', extra: 1 });
  assert.ok(!result.success);
  const text = describeIssues(result.error, { redirectUris: 'redirect_uris', name: 'client_name' }, 'body');
  assert.match(text, /^body\.redirect_uris\.0: /);
  assert.match(text, /body\.client_name: name is required/);
  assert.match(text, /Unrecognized key: "extra"/);
});
