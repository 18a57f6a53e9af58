// runs-on: once
// Authlib as an API behind Gatehouse (issue 25, "mod_oauth2 or Authlib introspecting the same token"): its
// ResourceProtector with an IntrospectTokenValidator asks Gatehouse's introspection endpoint (RFC 7662) about each
// request's Bearer token, as a registered resource server. An active token, opaque or JWT (RFC 9068), is accepted
// with its scope and audience; a revoked one (RFC 7009) and one for another API are refused. Authlib comes from the
// system's packages (Debian: apt-get install python3-authlib python3-requests): skipped where it is not installed,
// except under CI=true, where .ci/run installs it and its absence fails this test. What introspection answers is
// proved on every store by introspection.test.ts and resource-indicators.test.ts; this proves a real peer reads it.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, test } from 'node:test';
import * as oidc from 'openid-client';
import { createApi, grantClientPermission } from '../../lib/authorization/manage.ts';
import { database } from '../../lib/db/database.ts';
import { type AuthlibApi, hasAuthlib, startAuthlibApi } from '../support/authlib.ts';
import { baseUrl, basic, databaseUrl, discover, makeClient, post } from '../support/fixtures.ts';

const skip =
  !hasAuthlib() && process.env.CI !== 'true'
    ? 'Authlib is not installed (Debian: apt-get install python3-authlib python3-requests); under CI=true, .ci/run installs it and its absence fails this test'
    : false;

const unique = () => randomBytes(4).toString('hex');
const started: AuthlibApi[] = [];
after(async () => {
  await Promise.all(started.map((api) => api.stop()));
});

test('an Authlib API accepts an active opaque or JWT access token with its scope and audience, and refuses it once revoked', {
  skip,
  timeout: 180_000,
}, async () => {
  assert.ok(hasAuthlib(), 'python3-authlib and python3-requests are installed (.ci/run installs them)');
  const db = database(databaseUrl);
  const id = unique();
  const orders = await createApi(db, { identifier: `https://orders-${id}.example.test/`, name: `Orders ${id}`, permissions: [{ name: 'orders:read' }] });
  const things = await createApi(db, {
    identifier: `urn:things-${id}:api`,
    name: `Things ${id}`,
    tokenFormat: 'opaque',
    permissions: [{ name: 'things:read' }],
  });
  // The APIs' own client, registered to introspect (docs/authorization.md: "as a registered resource server").
  const rs = await makeClient({ grantTypes: ['client_credentials'], redirectUris: [], scopes: ['introspect'], resourceServer: true });
  const api = async (audience: string, scope: string) => {
    const one = await startAuthlibApi({
      introspectionEndpoint: new URL('/oauth/introspect', baseUrl).href,
      clientId: rs.id,
      clientSecret: rs.clientSecret!,
      audience,
      scope,
    });
    started.push(one);
    return one;
  };
  const [ordersApi, thingsApi] = await Promise.all([api(orders.identifier, 'orders:read'), api(things.identifier, 'things:read')]);

  const machine = await makeClient({ grantTypes: ['client_credentials'], redirectUris: [], scopes: ['openid'] });
  await grantClientPermission(db, machine.id, orders.identifier, 'orders:read');
  await grantClientPermission(db, machine.id, things.identifier, 'things:read');
  const config = await discover(machine);
  const jwt = (await oidc.clientCredentialsGrant(config, { scope: 'orders:read', resource: orders.identifier })).access_token;
  const opaque = (await oidc.clientCredentialsGrant(config, { scope: 'things:read', resource: things.identifier })).access_token;
  assert.equal(jwt.split('.').length, 3, 'a JWT for the orders API');
  assert.equal(opaque.split('.').length, 1, 'an opaque token for the things API');

  const call = async (target: AuthlibApi, token: string) => {
    const response = await fetch(target.url, { headers: { authorization: `Bearer ${token}` } });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  for (const [target, token, audience, scope] of [
    [ordersApi, jwt, orders.identifier, 'orders:read'],
    [thingsApi, opaque, things.identifier, 'things:read'],
  ] as const) {
    const accepted = await call(target, token);
    assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
    assert.equal(accepted.body.scope, scope);
    assert.equal(accepted.body.aud, audience);
    assert.equal(accepted.body.client_id, machine.id);
  }

  // A token for the other API: active, but not this API's audience.
  assert.deepEqual(await call(ordersApi, opaque), { status: 401, body: { error: 'invalid_token' } });
  assert.deepEqual(await call(thingsApi, jwt), { status: 401, body: { error: 'invalid_token' } });

  const auth = { authorization: basic(machine.id, machine.clientSecret!) };
  for (const [target, token] of [
    [ordersApi, jwt],
    [thingsApi, opaque],
  ] as const) {
    assert.equal((await post('/oauth/revoke', { token }, auth)).status, 200);
    assert.deepEqual(await call(target, token), { status: 401, body: { error: 'invalid_token' } }, 'refused once revoked');
  }
});
