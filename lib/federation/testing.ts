/** A connection's fields for tests that need one row and care about none of its settings. */
import type { ConnectionWrite } from './repository.ts';

export const connectionFields: ConnectionWrite = {
  kind: 'oidc',
  slug: 'test',
  displayName: 'Test upstream',
  icon: null,
  enabled: true,
  issuer: 'https://upstream.example',
  authorizationEndpoint: null,
  tokenEndpoint: null,
  userinfoEndpoint: null,
  emailsEndpoint: null,
  clientId: 'gatehouse',
  scopes: 'openid profile email',
  pkce: true,
  passLoginHint: true,
  claimMapping: {},
  jitCreate: false,
  jitState: 'enabled',
  emailDomains: [],
  clientIds: [],
  trustedForMfa: false,
  upstreamLogout: false,
  keepTokens: false,
};
