// The process's log: LOG_LEVEL, what is redacted, how errors are reduced, the terminal format and the request line.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { logLevelSchema } from '../config/env.ts';
import { createLogger, memoryLog, prettyStream, serializeError } from './log.ts';
import { logRequest, pathRoute } from './request-observer.ts';

test('LOG_LEVEL: pino level names in any case, info when unset or empty, anything else refused', () => {
  assert.equal(logLevelSchema.parse(undefined), 'info');
  assert.equal(logLevelSchema.parse(''), 'info');
  assert.equal(logLevelSchema.parse(' DEBUG '), 'debug');
  for (const level of ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']) assert.equal(logLevelSchema.parse(level), level);
  for (const wrong of ['verbose', 'warning', '30', 'info,debug']) {
    const parsed = logLevelSchema.safeParse(wrong);
    assert.equal(parsed.success, false, wrong);
    assert.match(parsed.error!.issues[0].message, /LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent/);
  }
});

test('the level decides what is written; silent writes nothing', () => {
  const warn = memoryLog('warn');
  warn.log.info('not this');
  warn.log.debug('nor this');
  warn.log.warn('this');
  warn.log.error('and this');
  assert.deepEqual(
    warn.lines.map((line) => [line.level, line.msg]),
    [
      [40, 'this'],
      [50, 'and this'],
    ],
  );
  const silent = memoryLog('silent');
  silent.log.fatal('nothing');
  assert.equal(silent.lines.length, 0);
});

test("one JSON object a line with an ISO time; credentials under their usual names are redacted at the top, in a request's parts and headers", () => {
  const { log, lines } = memoryLog();
  log.info(
    {
      password: 'hunter2',
      client_secret: 'cs',
      code: 'auth-code',
      code_verifier: 'verifier',
      token: 't',
      body: { refresh_token: 'rt', access_token: 'at', id_token: 'it', client_id: 'app' },
      req: { headers: { authorization: 'Basic eDp5', cookie: '_session=abc', 'user-agent': 'test' } },
      res: { headers: { 'set-cookie': ['_session=abc'] } },
    },
    'hello',
  );
  const [line] = lines;
  assert.equal(line.msg, 'hello');
  assert.equal(line.level, 30);
  assert.match(String(line.time), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  const text = JSON.stringify(line);
  for (const secret of ['hunter2', '"cs"', 'auth-code', '"verifier"', '"t"', '"rt"', '"at"', '"it"', 'eDp5', '_session=abc']) {
    assert.doesNotMatch(text, new RegExp(secret), secret);
  }
  assert.equal((line.body as Record<string, unknown>).client_id, 'app', 'a client_id is no secret');
  assert.equal((line.req as { headers: Record<string, string> }).headers['user-agent'], 'test');
  assert.equal((line.req as { headers: Record<string, string> }).headers.cookie, '[redacted]');
});

test('an error is its type, message, stack and cause, not the rest of its fields', () => {
  const cause = new Error('socket hang up');
  const error = Object.assign(new Error('request failed', { cause }), { code: 'ECONNRESET', request: { headers: { authorization: 'Bearer x' } } });
  const serialized = serializeError(error);
  assert.equal(serialized.type, 'Error ECONNRESET');
  assert.equal(serialized.message, 'request failed');
  assert.equal(serialized.cause, 'Error: socket hang up');
  assert.match(serialized.stack, /request failed/);
  assert.equal('request' in serialized, false);
  assert.deepEqual(serializeError('plain'), { type: 'string', message: 'plain' });

  const { log, lines } = memoryLog();
  log.error({ err: error, request_id: 'r-1' }, 'server_error');
  assert.equal((lines[0].err as Record<string, string>).message, 'request failed');
  assert.doesNotMatch(JSON.stringify(lines[0]), /Bearer x/);
});

test('on a terminal: time, level, message and fields on one line, the stack below', () => {
  let written = '';
  const log = createLogger({ destination: prettyStream({ write: (text: string) => (written += text) }) });
  log.info({ request_id: 'r-1', status: 200 }, 'request');
  log.error({ err: new Error('boom') }, 'server_error');
  const [first, second, stack] = written.split('\n');
  assert.match(first, /^\d\d:\d\d:\d\d\.\d{3} INFO {2}request request_id=r-1 status=200$/);
  assert.match(second, /^\d\d:\d\d:\d\d\.\d{3} ERROR server_error$/);
  assert.match(stack, /^ {4}Error: boom$/);
});

test('a request line: id, method, route, status, duration and client; the probes at debug only', () => {
  const { log, lines } = memoryLog('info');
  logRequest(log, { requestId: 'r-1', method: 'POST', route: 'token', status: 200, durationMs: 12.345, clientId: 'app' });
  logRequest(log, { requestId: 'r-2', method: 'GET', route: '/healthz', status: 200, durationMs: 0.2 });
  assert.equal(lines.length, 1);
  assert.deepEqual(
    { ...lines[0], time: undefined, pid: undefined, hostname: undefined },
    {
      level: 30,
      time: undefined,
      pid: undefined,
      hostname: undefined,
      request_id: 'r-1',
      method: 'POST',
      route: 'token',
      status: 200,
      duration_ms: 12.3,
      client_id: 'app',
      msg: 'request',
    },
  );
  const debug = memoryLog('debug');
  logRequest(debug.log, { requestId: 'r-2', method: 'GET', route: '/readyz', status: 503, durationMs: 1 });
  assert.equal(debug.lines[0].level, 20);
});

test("a page's route: ids and tokens become :id, the rest of the path stays, and it is bounded", () => {
  assert.equal(pathRoute('/account/sessions'), '/account/sessions');
  assert.equal(pathRoute('/password-reset/Zm9vYmFyYmF6cXV4eHl6enlfLWFiY2RlZmdoaWprbG1u'), '/password-reset/:id');
  assert.equal(pathRoute('/interaction/aBcDeFgHiJkLmNoPqRsTu/login'), '/interaction/:id/login');
  assert.equal(pathRoute('/admin/users/u1'), '/admin/users/:id');
  assert.equal(pathRoute('/_next/static/chunks/0a1b2c3d.js'), '/_next/static/chunks/:id');
  assert.ok(pathRoute(`/${'a/'.repeat(200)}`).length <= 203);
});
