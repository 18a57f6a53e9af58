import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import { readFormBody, readNodeFormBody } from './form-body.ts';

const form = { 'content-type': 'application/x-www-form-urlencoded' };

/** A chunked body of `chunks` chunks of `size` bytes that counts how many were pulled. */
function counted(chunks: number, size: number) {
  const state = { pulled: 0 };
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (state.pulled === chunks) return controller.close();
        state.pulled++;
        controller.enqueue(new Uint8Array(size).fill(0x61));
      },
    },
    { highWaterMark: 0 },
  );
  return { body, state };
}

const post = (body: BodyInit | null, headers: Record<string, string>) =>
  new Request('http://localhost/x', { method: 'POST', headers, body, duplex: 'half' } as RequestInit);

test('a form within the limit is read', async () => {
  const params = await readFormBody(post('username=ada&password=p%C3%A4ss', form), 100);
  assert.ok(params instanceof URLSearchParams);
  assert.equal(params.get('password'), 'päss');
});

test('a declared length over the limit is 413 before a byte is read', async () => {
  const { body, state } = counted(10, 10);
  const answer = await readFormBody(post(body, { ...form, 'content-length': '101' }), 100);
  assert.ok(answer instanceof Response);
  assert.equal(answer.status, 413);
  assert.deepEqual(await answer.json(), { error: 'invalid_request', error_description: 'the request body is larger than 100 bytes' });
  assert.equal(state.pulled, 0);
});

test('a chunked body is read up to the limit and no further', async () => {
  const { body, state } = counted(1000, 10);
  const answer = await readFormBody(post(body, form), 100);
  assert.ok(answer instanceof Response);
  assert.equal(answer.status, 413);
  assert.equal(state.pulled, 11, 'one chunk past the limit, then the stream is let go');
});

test('a chunked body of exactly the limit is read', async () => {
  const { body } = counted(10, 10);
  const params = await readFormBody(post(body, form), 100);
  assert.ok(params instanceof URLSearchParams);
  assert.equal(params.keys().next().value?.length, 100);
});

test('an empty body needs no content type; any other body must be a form', async () => {
  const empty = await readFormBody(post(null, { 'content-length': '0' }), 100);
  assert.ok(empty instanceof URLSearchParams);
  assert.equal([...empty].length, 0);
  const json = await readFormBody(post('{}', { 'content-type': 'application/json' }), 100);
  assert.ok(json instanceof Response);
  assert.equal(json.status, 400);
});

test('a body that breaks off is a 400, not a crash', async () => {
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      controller.error(new Error('connection reset'));
    },
  });
  const answer = await readFormBody(post(body, form), 100);
  assert.ok(answer instanceof Response);
  assert.equal(answer.status, 400);
});

/** A Node request of `chunks` chunks of `size` bytes, as the provider's chain sees it. */
function nodeRequest(chunks: number, size: number, headers: Record<string, string>) {
  const state = { pulled: 0 };
  const req = new Readable({
    highWaterMark: 0,
    read() {
      if (state.pulled === chunks) return void this.push(null);
      state.pulled++;
      this.push(Buffer.alloc(size, 0x61));
    },
  }) as Readable & { headers: Record<string, string> };
  req.headers = headers;
  return { req: req as unknown as IncomingMessage, state };
}

test('the Node reader reads the same form, and stops past the limit without destroying the request', async () => {
  const { req } = nodeRequest(10, 10, form);
  const params = await readNodeFormBody(req, 100);
  assert.ok(params instanceof URLSearchParams);
  assert.equal(params.keys().next().value?.length, 100);

  const over = nodeRequest(1000, 10, form);
  const answer = await readNodeFormBody(over.req, 100);
  assert.ok(answer instanceof Response);
  assert.equal(answer.status, 413);
  assert.ok(over.state.pulled < 20, `read ${over.state.pulled} chunks`);
  assert.equal(over.req.destroyed, false, 'the rest is left to Node, the connection stays');

  const declared = nodeRequest(10, 10, { ...form, 'content-length': '101' });
  assert.equal(((await readNodeFormBody(declared.req, 100)) as Response).status, 413);
  assert.equal(declared.state.pulled, 0);
});
