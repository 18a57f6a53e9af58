// The admin API's wire shapes: snake_case names over the use cases' own schemas, and nothing secret going out.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newClientSchema } from '../../clients/manage.ts';
import { registrationOf } from '../../clients/wire.ts';
import { auditEventDto, auditEventSchema, auditQuerySchema, snakeKeys } from './dto/audit.ts';
import { clientDto, clientFieldNames, clientInput, clientPatchSchema, clientSchema, newClientBodySchema } from './dto/clients.ts';
import { searchQuery } from './dto/common.ts';
import { invalidRequest } from './errors.ts';
import {
  createdUserSchema,
  newUserBodySchema,
  noSecondFactors,
  passwordBodySchema,
  profilePatchSchema,
  userDto,
  userSchema,
  userSummaryDto,
  userSummarySchema,
} from './dto/users.ts';
import { clientRecord } from '../../testing.ts';
import { clientToWire } from '../../clients/wire.ts';
import { userToWire } from '../../users/wire.ts';

const api = clientRecord();

test('a client goes out in RFC 7591 names, and its schema has no room for a secret', () => {
  const dto = clientSchema.parse(clientDto(api, false));
  assert.equal(dto.client_id, 'c1');
  assert.equal(dto.token_endpoint_auth_method, 'client_secret_post');
  assert.equal(dto.created_at, '2026-01-02T03:04:05.000Z');
  assert.equal(dto.id_token_signed_response_alg, 'RS256');
  assert.ok(!clientSchema.safeParse({ ...dto, client_secret: 'x' }).success, 'strict: a secret would fail the response check');
  assert.ok(!clientSchema.safeParse({ ...dto, secret_hash: 'x' }).success);
});

test("the CLI's --json and the API's answer are one serializer's (lib/clients/wire.ts, lib/users/wire.ts, lib/keys/wire.ts); the API adds `managed`, `locked_until`, `invitation_expires_at`", () => {
  const { managed, ...dto } = clientSchema.parse(clientDto(api, true));
  assert.equal(managed, true);
  assert.deepEqual(clientToWire(api), dto);
  const user = {
    id: 'u1',
    username: 'ada',
    email: null,
    emailVerified: false,
    requiresVerifiedEmail: false,
    invited: false,
    name: 'Ada',
    role: 'user' as const,
    disabled: false,
    createdAt: new Date(0),
    updatedAt: new Date(0),
  };
  assert.deepEqual(userToWire(user), userSummarySchema.parse(userSummaryDto(user)));
  const since = new Date(Date.UTC(2026, 0, 1));
  const factors = { totp: true, since, pending: false, passkeys: [{ name: 'Laptop', createdAt: since, lastUsedAt: null }], recoveryCodesLeft: 7 };
  const { locked_until, second_factor, invitation_expires_at, ...rest } = userSchema.parse(userDto(user, new Date(Date.UTC(2026, 0, 2, 3, 4, 5)), factors));
  assert.equal(locked_until, '2026-01-02T03:04:05.000Z');
  assert.equal(invitation_expires_at, null);
  const invited = userSchema.parse(userDto({ ...user, invited: true }, null, noSecondFactors, new Date(Date.UTC(2026, 0, 8))));
  assert.equal(invited.invited, true);
  assert.equal(invited.invitation_expires_at, '2026-01-08T00:00:00.000Z');
  assert.deepEqual(second_factor, {
    totp: true,
    totp_since: '2026-01-01T00:00:00.000Z',
    passkeys: [{ name: 'Laptop', created_at: '2026-01-01T00:00:00.000Z', last_used_at: null }],
    recovery_codes_left: 7,
  });
  assert.deepEqual(userToWire(user), rest);
  assert.equal(userSchema.parse(userDto(user, null, noSecondFactors)).locked_until, null, 'not locked');
  assert.deepEqual(userSchema.parse(userDto(user, null, noSecondFactors)).second_factor, {
    totp: false,
    totp_since: null,
    passkeys: [],
    recovery_codes_left: 0,
  });
  assert.ok(!userSchema.safeParse(userToWire(user)).success, 'one user always says whether it is locked');
});

test("a registration body: unknown fields refused, the service schema's own field rules applied", () => {
  assert.ok(newClientBodySchema.safeParse({ client_name: 'Web' }).success);
  assert.ok(!newClientBodySchema.safeParse({}).success, 'client_name is required');
  assert.ok(!newClientBodySchema.safeParse({ client_name: 'Web', redirect_uri: 'https://a.example/cb' }).success, 'a typo is not ignored');
  assert.ok(!newClientBodySchema.safeParse({ client_name: 'Web', redirect_uris: ['http://a.example/cb'] }).success, 'https only');
  assert.ok(!newClientBodySchema.safeParse({ client_name: 'Web', grant_types: ['password'] }).success);
});

test("the body becomes the registration input; the scope string becomes the list; defaults stay the schema's", () => {
  const input = clientInput(newClientBodySchema.parse({ client_name: 'Bot', grant_types: ['client_credentials'], scope: 'admin  ', admin_api: true }));
  const parsed = newClientSchema.parse(input);
  assert.deepEqual(parsed.scopes, ['admin']);
  assert.equal(parsed.type, 'confidential');
  assert.equal(parsed.adminApi, true);
  assert.deepEqual(newClientSchema.parse(clientInput(newClientBodySchema.parse({ client_name: 'Web', redirect_uris: ['https://a.example/cb'] }))).grantTypes, [
    'authorization_code',
    'refresh_token',
  ]);
});

test('require_second_factor: false by default, set by a body, kept by a PATCH that leaves it out, shown by the DTO', () => {
  const web = { client_name: 'Web', redirect_uris: ['https://a.example/cb'] };
  assert.equal(newClientSchema.parse(clientInput(newClientBodySchema.parse(web))).requireSecondFactor, false);
  assert.equal(newClientSchema.parse(clientInput(newClientBodySchema.parse({ ...web, require_second_factor: true }))).requireSecondFactor, true);
  assert.ok(!newClientBodySchema.safeParse({ ...web, require_second_factor: 'yes' }).success);
  const strict = { ...api, requireSecondFactor: true };
  assert.equal(newClientSchema.parse(clientInput(clientPatchSchema.parse({ client_name: 'Orders' }), registrationOf(strict))).requireSecondFactor, true);
  assert.equal(clientDto(strict, false).require_second_factor, true);
});

test('a PATCH changes the given fields and keeps the others as stored', () => {
  const patch = clientPatchSchema.parse({ client_name: 'Orders', logo_uri: 'https://a.example/logo.png' });
  const input = newClientSchema.parse(clientInput(patch, registrationOf(api)));
  assert.equal(input.name, 'Orders');
  assert.equal(input.logoUri, 'https://a.example/logo.png');
  assert.deepEqual(input.scopes, ['introspect']);
  assert.equal(input.tokenEndpointAuthMethod, 'client_secret_post');
  assert.equal(input.resourceServer, true);
  assert.deepEqual(clientPatchSchema.parse({}), {}, 'no defaults creep into a PATCH');
  assert.equal(input.idTokenSignedResponseAlg, 'RS256', "a PATCH without it keeps the client's algorithm");
});

test('id_token_signed_response_alg: ES256 by default for a new client, RS256 on request, nothing else', () => {
  const fresh = newClientSchema.parse(clientInput(newClientBodySchema.parse({ client_name: 'Web', redirect_uris: ['https://a.example/cb'] })));
  assert.equal(fresh.idTokenSignedResponseAlg, 'ES256');
  const legacy = newClientSchema.parse(
    clientInput(newClientBodySchema.parse({ client_name: 'Web', redirect_uris: ['https://a.example/cb'], id_token_signed_response_alg: 'RS256' })),
  );
  assert.equal(legacy.idTokenSignedResponseAlg, 'RS256');
  for (const bad of ['HS256', 'none', 'es256', 'PS256', 256]) {
    assert.ok(!newClientBodySchema.safeParse({ client_name: 'Web', id_token_signed_response_alg: bad }).success, String(bad));
    assert.ok(!clientPatchSchema.safeParse({ id_token_signed_response_alg: bad }).success, String(bad));
  }
  const switched = newClientSchema.parse(clientInput(clientPatchSchema.parse({ id_token_signed_response_alg: 'ES256' }), registrationOf(api)));
  assert.equal(switched.idTokenSignedResponseAlg, 'ES256');
});

test('a public resource server, or the introspect scope beside a person-facing grant, is refused in wire names', () => {
  const body = newClientBodySchema.parse({
    client_name: 'Orders',
    client_type: 'public',
    redirect_uris: ['http://localhost:5173/cb'],
    scope: 'openid introspect',
    resource_server: true,
  });
  const result = newClientSchema.safeParse(clientInput(body));
  assert.ok(!result.success);
  assert.equal(
    invalidRequest(result.error, clientFieldNames, 'body').message,
    'body.resource_server: Only confidential clients can be resource servers (a public client has no secret to authenticate with); ' +
      'body.grant_types: A client with the introspect scope uses the client_credentials grant only',
  );
  // A PATCH that adds the code grant to a resource server holding introspect.
  const patched = newClientSchema.safeParse(
    clientInput(
      clientPatchSchema.parse({ grant_types: ['authorization_code', 'client_credentials'], redirect_uris: ['https://a.example/cb'] }),
      registrationOf(api),
    ),
  );
  assert.ok(!patched.success);
  assert.deepEqual(
    patched.error.issues.map((i) => clientFieldNames[String(i.path[0])]),
    ['grant_types'],
  );
});

test('every field of the registration schema has a wire name for its issues', () => {
  assert.deepEqual(Object.keys(newClientSchema.shape).sort(), Object.keys(clientFieldNames).sort());
  const wire = new Set(Object.keys(newClientBodySchema.shape));
  for (const name of Object.values(clientFieldNames)) assert.ok(wire.has(name), name);
});

test('users: a password goes in, and out only as a generated one; never a hash', () => {
  const user = {
    id: 'u1',
    username: 'ada',
    email: null,
    emailVerified: false,
    requiresVerifiedEmail: false,
    invited: false,
    name: 'Ada',
    role: 'admin' as const,
    disabled: false,
    createdAt: new Date(0),
    updatedAt: new Date(0),
  };
  const dto = userSchema.parse(userDto(user, null, noSecondFactors));
  assert.equal(dto.email_verified, false);
  assert.ok(!userSchema.safeParse({ ...dto, password_hash: 'x' }).success);
  assert.ok(!userSchema.safeParse({ ...dto, password: 'x' }).success, 'only the create answer may carry a (generated) password');
  assert.ok(createdUserSchema.safeParse({ ...dto, password: 'generated' }).success);
  assert.ok(!newUserBodySchema.safeParse({ username: 'ada', password: 'short' }).success, 'the password policy');
  assert.ok(!newUserBodySchema.safeParse({ username: 'ada lovelace' }).success, 'the username rule');
  assert.deepEqual(newUserBodySchema.parse({ username: ' ada ' }), { username: 'ada' });
  assert.ok(newUserBodySchema.safeParse({ username: 'ada', email: 'ada@example.com', invite: true }).success);
  assert.ok(!userSchema.safeParse({ ...dto, invitation_token: 'x' }).success, 'never the link');
  assert.deepEqual(passwordBodySchema.parse({}), {});
  assert.deepEqual(profilePatchSchema.parse({ name: '', email: ' ' }), { name: null, email: null }, 'empty clears, as on the portal form');
  assert.deepEqual(profilePatchSchema.parse({}), {});
});

test('queries: paging within bounds, audit filters checked strictly', () => {
  assert.deepEqual(searchQuery.parse({}), { page: 1, per_page: 20 });
  assert.deepEqual(searchQuery.parse({ q: ' ada ', page: '2', per_page: '100' }), { q: 'ada', page: 2, per_page: 100 });
  for (const bad of [{ page: '0' }, { per_page: '101' }, { page: 'x' }, { sort: 'name' }]) assert.ok(!searchQuery.safeParse(bad).success, JSON.stringify(bad));
  assert.ok(auditQuerySchema.safeParse({ action: 'user.disabled', from: '2026-01-01', to: '2026-01-02T10:00:00+02:00' }).success);
  for (const bad of [{ action: 'user.erased' }, { from: '2026-02-30' }, { to: 'yesterday' }])
    assert.ok(!auditQuerySchema.safeParse(bad).success, JSON.stringify(bad));
});

test('audit details go out in snake_case at any depth', () => {
  assert.deepEqual(snakeKeys({ clientId: 'c', revokedArtifacts: 2, nested: [{ grantId: 'g' }] }), {
    client_id: 'c',
    revoked_artifacts: 2,
    nested: [{ grant_id: 'g' }],
  });
  const dto = auditEventSchema.parse(
    auditEventDto({
      id: 'e1',
      at: new Date(0),
      actor: { id: null, username: 'client:bot' },
      action: 'user.disabled',
      target: { type: 'user', id: 'u1', label: 'ada' },
      ip: null,
      userAgent: 'curl',
      details: { revokedArtifacts: 3 },
    }),
  );
  assert.deepEqual(dto.details, { revoked_artifacts: 3 });
  assert.equal(dto.user_agent, 'curl');
});
