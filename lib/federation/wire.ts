/** A connection as the CLI's --json and the admin API show it: snake_case, never the client secret. */
import type { ConnectionRecord } from './repository.ts';

export function connectionToWire(c: ConnectionRecord) {
  return {
    slug: c.slug,
    kind: c.kind,
    display_name: c.displayName,
    icon: c.icon,
    enabled: c.enabled,
    issuer: c.issuer,
    authorization_endpoint: c.authorizationEndpoint,
    token_endpoint: c.tokenEndpoint,
    userinfo_endpoint: c.userinfoEndpoint,
    emails_endpoint: c.emailsEndpoint,
    client_id: c.clientId,
    has_client_secret: c.hasClientSecret,
    scopes: c.scopes,
    pkce: c.pkce,
    pass_login_hint: c.passLoginHint,
    claim_mapping: { ...c.claimMapping } as Record<string, string>,
    jit_create: c.jitCreate,
    jit_state: c.jitState,
    email_domains: c.emailDomains,
    client_ids: c.clientIds,
    trusted_for_mfa: c.trustedForMfa,
    upstream_logout: c.upstreamLogout,
    keep_tokens: c.keepTokens,
    created_at: c.createdAt.toISOString(),
    updated_at: c.updatedAt.toISOString(),
  };
}
