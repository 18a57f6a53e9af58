/**
 * What an initial access token allows a client registering with it (RFC 7591 §3: the server "MAY ... reject
 * or replace any of the client's requested metadata values"; Gatehouse rejects, so a client never holds
 * less than it asked for without knowing). Pure: the metadata the client sent, the token's limits in.
 */
export interface RegistrationLimits {
  /** Hosts its redirect URIs may name; empty: any host. */
  redirectHosts: string[];
  /** Grant types it may register. */
  grantTypes: string[];
  /** Scopes it may register. */
  scopes: string[];
}

export interface LimitViolation {
  /** RFC 7591 §3.2.2 error codes. */
  error: 'invalid_redirect_uri' | 'invalid_client_metadata';
  description: string;
}

const list = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/** The first limit the metadata breaks, or undefined. */
export function limitViolation(metadata: Record<string, unknown>, limits: RegistrationLimits): LimitViolation | undefined {
  if (limits.redirectHosts.length) {
    const allowed = new Set(limits.redirectHosts.map((h) => h.toLowerCase()));
    for (const uri of [...list(metadata.redirect_uris), ...list(metadata.post_logout_redirect_uris)]) {
      const host = URL.parse(uri)?.hostname.toLowerCase();
      if (!host || !allowed.has(host)) {
        return { error: 'invalid_redirect_uri', description: `${uri} is not on a host this initial access token allows (${limits.redirectHosts.join(', ')})` };
      }
    }
  }
  // RFC 7591 §2: grant_types defaults to authorization_code when left out.
  const grants = metadata.grant_types === undefined ? ['authorization_code'] : list(metadata.grant_types);
  const grant = grants.find((g) => !limits.grantTypes.includes(g));
  if (grant) return { error: 'invalid_client_metadata', description: `grant type ${grant} is not allowed by this initial access token` };
  const scopes = typeof metadata.scope === 'string' ? metadata.scope.split(' ').filter(Boolean) : [];
  const scope = scopes.find((s) => !limits.scopes.includes(s));
  if (scope) return { error: 'invalid_client_metadata', description: `scope ${scope} is not allowed by this initial access token` };
  return undefined;
}
