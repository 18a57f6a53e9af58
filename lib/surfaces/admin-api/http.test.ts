// The admin API's request bodies: JSON objects only, UTF-8, bounded.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BODY_LIMITS } from '../../http/body-limits.ts';
import { InvalidRequest } from '../../platform/errors.ts';
import { isJsonContentType, JSON_BODY_LIMIT, readJsonBody } from './http.ts';

const post = (body: BodyInit | null, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  new Request('http://localhost/api/admin/users', {
    method: 'POST',
    headers,
    body,
    ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
  } as RequestInit);

async function refusal(request: Request): Promise<string> {
  const error = await readJsonBody(request).then(
    () => assert.fail('expected a refusal'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof InvalidRequest);
  assert.equal(error.code, 'invalid_request');
  return error.message;
}

test('application/json, with a UTF-8 charset or none', () => {
  for (const type of ['application/json', 'Application/JSON; charset=utf-8', 'application/json;charset="UTF-8"']) assert.ok(isJsonContentType(type), type);
  for (const type of [null, '', 'text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1', 'application/jsonp']) {
    assert.ok(!isJsonContentType(type), String(type));
  }
});

test('a JSON object comes back as it was sent', async () => {
  assert.deepEqual(await readJsonBody(post('{"username":"ada","role":"admin"}')), { username: 'ada', role: 'admin' });
});

test('anything but application/json is refused before the body is read', async () => {
  assert.match(await refusal(post('{}', { 'content-type': 'text/plain' })), /must be application\/json/);
  assert.match(await refusal(post('username=ada', { 'content-type': 'application/x-www-form-urlencoded' })), /must be application\/json/);
});

test('malformed JSON is refused without quoting the body (it may hold a password)', async () => {
  const description = await refusal(post('{"password":"hunter2hunter2"'));
  assert.equal(description, 'the request body is not valid JSON');
  assert.match(await refusal(post('')), /not valid JSON/);
});

test('the top level must be an object', async () => {
  for (const body of ['[]', '"text"', '42', 'null']) assert.match(await refusal(post(body)), /must be a JSON object/, body);
});

test('invalid UTF-8 is refused', async () => {
  assert.match(await refusal(post(new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]))), /not valid UTF-8/);
});

test('a body over the limit is refused, by its Content-Length or while it streams', async () => {
  const big = `{"name":"${'x'.repeat(JSON_BODY_LIMIT)}"}`;
  assert.match(await refusal(post(big)), /larger than 64 kB/);
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 0; i < 100; i++) controller.enqueue(new TextEncoder().encode('x'.repeat(1024)));
      controller.close();
    },
  });
  const request = post(stream);
  assert.equal(request.headers.get('content-length'), null, 'no declared length');
  assert.match(await refusal(request), /larger than 64 kB/);
});

test("the admin API's guard is its own reader's limit", () => {
  assert.equal(BODY_LIMITS.adminApi, JSON_BODY_LIMIT);
});
