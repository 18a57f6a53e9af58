// Bearer introspection (RFC 7662 §2.1, RFC 6750 §3.1): which caller tokens authorise it, against a provider
// whose stores hold tokens the protocol would no longer issue (a person's token with the introspect scope).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type Provider from 'oidc-provider';
import { readFormBody } from './form-body.ts';
import { introspectWithBearer } from './introspection.ts';

interface FakeToken {
  kind: 'AccessToken' | 'ClientCredentials' | 'RefreshToken';
  clientId: string;
  accountId?: string;
  grantId?: string;
  scope: string;
}

const clients: Record<string, { clientAuthMethod: string; resource_server: boolean }> = {
  'orders-api': { clientAuthMethod: 'client_secret_basic', resource_server: true },
  'public-rs': { clientAuthMethod: 'none', resource_server: true },
  web: { clientAuthMethod: 'client_secret_basic', resource_server: false },
};

const tokens: Record<string, FakeToken> = {
  // The resource server's own client_credentials token: the one kind of caller allowed.
  'cc-orders': { kind: 'ClientCredentials', clientId: 'orders-api', scope: 'introspect' },
  // A person's token from the same resource server that somehow holds the scope (a row from before the rule).
  'person-orders': { kind: 'AccessToken', clientId: 'orders-api', accountId: 'alice', grantId: 'g-alice', scope: 'openid introspect' },
  // A public client flagged as a resource server, whatever the provider's stored metadata says.
  'cc-public': { kind: 'ClientCredentials', clientId: 'public-rs', scope: 'introspect' },
  // Someone else's token, the one being asked about.
  'bob-web': { kind: 'AccessToken', clientId: 'web', accountId: 'bob', grantId: 'g-bob', scope: 'openid' },
};

const grants: Record<string, { clientId: string; accountId: string }> = {
  'g-alice': { clientId: 'orders-api', accountId: 'alice' },
  'g-bob': { clientId: 'web', accountId: 'bob' },
};

function store(kind: FakeToken['kind']) {
  return {
    find: async (value: string) => {
      const token = tokens[value];
      return token?.kind === kind ? { ...token, isValid: true, tokenType: 'Bearer', iat: 1, exp: 2 } : undefined;
    },
  };
}

const provider = {
  issuer: 'http://localhost:3000',
  AccessToken: store('AccessToken'),
  ClientCredentials: store('ClientCredentials'),
  RefreshToken: store('RefreshToken'),
  Grant: { find: async (id: string) => (grants[id] ? { ...grants[id], isExpired: false } : undefined) },
  Client: {
    find: async (id: string) => {
      const client = clients[id];
      return client && { clientId: id, clientAuthMethod: client.clientAuthMethod, metadata: () => ({ resource_server: client.resource_server }) };
    },
  },
} as unknown as Provider;

const ask = (bearer: string, token = 'bob-web') =>
  introspectWithBearer(provider, bearer, () =>
    readFormBody(
      new Request('http://localhost:3000/oauth/introspect', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${bearer}` },
        body: new URLSearchParams({ token }).toString(),
      }),
    ),
  );

test("a resource server's own client_credentials token introspects; a person's token from it never does, introspect scope or not", async () => {
  const allowed = await ask('cc-orders');
  assert.equal(allowed.status, 200);
  const body = await allowed.json();
  assert.equal(body.active, true);
  assert.equal(body.client_id, 'web');
  assert.equal(body.sub, 'bob');
  const response = await ask('person-orders');
  assert.equal(response.status, 403);
  assert.equal((await response.json()).error, 'insufficient_scope');
  assert.match(response.headers.get('www-authenticate')!, /^Bearer .*error="insufficient_scope"/);
});

test("a public client's token never authorises introspection, whatever its metadata says", async () => {
  const response = await ask('cc-public');
  assert.equal(response.status, 403);
  assert.equal((await response.json()).error, 'insufficient_scope');
});
