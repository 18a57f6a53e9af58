// The provider options that decide trust: the client metadata validator (RFC 7591 §3.2.2),
// introspection's allowedPolicy (RFC 7662 §2.1) and clientBasedCORS.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Database } from '../db/database.ts';
import { corsOrigins, providerConfiguration } from './configuration.ts';
import { DEFAULT_BRAND } from '../config/brand.ts';

const configuration = providerConfiguration({
  now: Date.now,
  issuer: 'http://localhost:3000',
  db: {} as Database, // never touched: nothing here reads storage
  jwks: [],
  cookieKeys: ['k'],
  accessTokenTtl: 60,
  refreshTokenTtl: 60,
  sessionTtl: 60,
  brand: DEFAULT_BRAND,
});

type Metadata = Record<string, unknown>;
const validate = (metadata: Metadata) => {
  for (const key of ['first_party', 'resource_server', 'admin_api', 'require_second_factor']) {
    configuration.extraClientMetadata!.validator!({} as never, key, metadata[key] as never, metadata as never);
  }
};
/** oidc-provider's InvalidClientMetadata says why in error_description (RFC 7591 §3.2.2). */
const refused = (why: RegExp) => (error: unknown) => why.test(String((error as { error_description?: string }).error_description));
const api: Metadata = {
  first_party: false,
  resource_server: true,
  admin_api: false,
  token_endpoint_auth_method: 'client_secret_basic',
  grant_types: ['client_credentials'],
  scope: 'introspect',
};

test('the validator refuses a public resource server and the introspect scope beside a person-facing grant', () => {
  validate(api);
  assert.throws(
    () => validate({ ...api, token_endpoint_auth_method: 'none', grant_types: ['authorization_code'], scope: 'openid' }),
    refused(/only confidential clients can be resource servers/),
  );
  assert.throws(
    () => validate({ ...api, grant_types: ['authorization_code', 'client_credentials'], scope: 'openid introspect' }),
    refused(/introspect scope is for the client_credentials grant only/),
  );
  assert.throws(() => validate({ ...api, resource_server: false }), refused(/only resource servers may be allowed the introspect scope/));
});

test('require_second_factor is a boolean when given', () => {
  validate({ ...api, require_second_factor: true });
  assert.throws(() => validate({ ...api, require_second_factor: 'yes' }), refused(/require_second_factor must be a boolean/));
});

test("introspection's allowedPolicy: own tokens, or any token for a confidential resource server only", async () => {
  const policy = configuration.features!.introspection!.allowedPolicy!;
  const client = (clientId: string, clientAuthMethod: string, resourceServer: boolean) =>
    ({ clientId, clientAuthMethod, metadata: () => ({ resource_server: resourceServer }) }) as never;
  const token = { clientId: 'web' } as never;
  assert.equal(await policy({} as never, client('orders', 'client_secret_basic', true), token), true);
  assert.equal(await policy({} as never, client('public-rs', 'none', true), token), false);
  assert.equal(await policy({} as never, client('other', 'client_secret_basic', false), token), false);
  assert.equal(await policy({} as never, client('web', 'none', false), token), true, 'its own token');
});

test('CORS origins are the http(s) origins of the redirect URIs, never the opaque "null"', () => {
  assert.deepEqual(
    [...corsOrigins(['com.example.app:/callback', 'http://localhost:5173/cb', 'https://app.example/cb', 'not a url'])],
    ['http://localhost:5173', 'https://app.example'],
  );
  const allowed = (origin: string, redirectUris: string[]) => configuration.clientBasedCORS!({} as never, origin, { redirectUris } as never);
  assert.equal(allowed('null', ['com.example.app:/callback']), false);
  assert.equal(allowed('https://app.example', ['https://app.example/cb']), true);
});
