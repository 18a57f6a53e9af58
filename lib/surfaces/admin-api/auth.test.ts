// Who may call the admin API: Bearer tokens and the portal session, RFC 6750 challenges, same-origin changes.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import type { AdminAccess } from '../portal/access.ts';
import { authorizeAdminRequest, bearerChallenge, presentedBearer, type AuthSources, type BearerCheck } from './auth.ts';
import { ServiceError } from '../../platform/errors.ts';

const issuer = 'https://id.example.com';
const admin = { id: 'u1', username: 'ada', name: 'Ada', email: null, role: 'owner' as const };

function sources(session: AdminAccess['kind'], tokens: Record<string, BearerCheck> = {}) {
  const calls = { session: 0, bearer: [] as string[] };
  const s: AuthSources = {
    issuer,
    session: async () => {
      calls.session += 1;
      return session === 'admin' || session === 'enrol' ? { kind: session, admin } : ({ kind: session } as AdminAccess);
    },
    bearer: async (token) => {
      calls.bearer.push(token);
      return tokens[token] ?? { kind: 'invalid' };
    },
  };
  return { s, calls };
}

const request = (method: string, headers: Record<string, string> = {}) => new Request(`${issuer}/api/admin/users`, { method, headers });

async function refusal(promise: Promise<unknown>): Promise<ServiceError> {
  const error = await promise.then(
    () => assert.fail('expected a refusal'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof ServiceError);
  return error;
}

test('the Bearer token of an Authorization header; empty when malformed, undefined without one', () => {
  assert.equal(presentedBearer(request('GET', { authorization: 'Bearer abc.DEF-_~+/=' })), 'abc.DEF-_~+/=');
  assert.equal(presentedBearer(request('GET', { authorization: 'bearer abc' })), 'abc');
  assert.equal(presentedBearer(request('GET', { authorization: 'Basic Zm9vOmJhcg==' })), '');
  assert.equal(presentedBearer(request('GET', { authorization: 'Bearer a b' })), '');
  assert.equal(presentedBearer(request('GET')), undefined);
});

test('no credentials at all: 401 with a Bearer challenge and no error code (RFC 6750 §3.1)', async () => {
  const error = await refusal(authorizeAdminRequest(request('GET'), sources('signed_out').s));
  assert.equal(error.code, 'unauthorized');
  assert.equal(error.headers['www-authenticate'], `Bearer realm="${issuer}/api/admin"`);
});

test('an invalid token: 401 invalid_token; a malformed header: 401 invalid_request', async () => {
  const invalid = await refusal(authorizeAdminRequest(request('GET', { authorization: 'Bearer nope' }), sources('admin').s));
  assert.equal(invalid.code, 'unauthorized');
  assert.match(invalid.headers['www-authenticate'], /^Bearer realm=".*", error="invalid_token", error_description="/);
  const malformed = await refusal(authorizeAdminRequest(request('GET', { authorization: 'Basic Zm9vOmJhcg==' }), sources('admin').s));
  assert.equal(malformed.code, 'unauthorized');
  assert.match(malformed.headers['www-authenticate'], /error="invalid_request"/);
});

test('a token that may not use the API: 403 insufficient_scope naming the admin scope', async () => {
  const { s } = sources('signed_out', { user: { kind: 'insufficient_scope' } });
  const error = await refusal(authorizeAdminRequest(request('GET', { authorization: 'Bearer user' }), s));
  assert.equal(error.code, 'forbidden');
  assert.match(error.headers['www-authenticate'], /error="insufficient_scope".*scope="admin"$/);
});

test("an admin-API client's token: the client acts, in any method, with no Origin needed", async () => {
  for (const method of ['GET', 'POST', 'PATCH', 'DELETE']) {
    const { s } = sources('signed_out', { good: { kind: 'client', clientId: 'bot', role: 'auditor' } });
    assert.deepEqual(await authorizeAdminRequest(request(method, { authorization: 'Bearer good', origin: 'https://evil.example' }), s), {
      kind: 'client',
      clientId: 'bot',
      role: 'auditor',
    });
  }
});

test('with an Authorization header the token alone decides: a portal cookie beside it is not consulted', async () => {
  const { s, calls } = sources('admin');
  await refusal(authorizeAdminRequest(request('GET', { authorization: 'Bearer stolen-cookie-does-not-help' }), s));
  assert.equal(calls.session, 0);
});

test('the portal session: an admin acts; anyone else signed in is 403', async () => {
  assert.deepEqual(await authorizeAdminRequest(request('GET'), sources('admin').s), { kind: 'session', admin });
  const error = await refusal(authorizeAdminRequest(request('GET'), sources('forbidden').s));
  assert.equal(error.code, 'forbidden');
  assert.equal(error.headers['www-authenticate'], undefined);
  const enrol = await refusal(authorizeAdminRequest(request('GET'), sources('enrol').s));
  assert.equal(enrol.code, 'forbidden', 'an admin without the second factor the policy requires');
  assert.match(enrol.message, /set up two-step verification first/);
});

test('with the portal session, a change must come from the issuer itself (CSRF); reads need not', async () => {
  const { s } = sources('admin');
  for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
    for (const origin of [undefined, 'https://evil.example', 'null', 'https://id.example.com.evil.example', 'http://id.example.com']) {
      const error = await refusal(authorizeAdminRequest(request(method, origin ? { origin } : {}), s));
      assert.equal(error.code, 'forbidden', `${method} from ${origin}`);
    }
    assert.equal((await authorizeAdminRequest(request(method, { origin: issuer }), s)).kind, 'session');
  }
  assert.equal((await authorizeAdminRequest(request('GET', { origin: 'https://evil.example' }), s)).kind, 'session');
});

test('challenge parameters cannot be broken out of by a quote', () => {
  assert.equal(
    bearerChallenge('https://x', { code: 'invalid_token', description: 'say "hi" \\ bye' }),
    'Bearer realm="https://x/api/admin", error="invalid_token", error_description="say hi  bye"',
  );
});
