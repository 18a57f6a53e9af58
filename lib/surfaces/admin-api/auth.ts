/**
 * Who may call the admin API, decided by each route on every request:
 *  - `Authorization: Bearer <access token>`: an admin-API client's
 *    client_credentials token with the `admin` scope (lib/oidc/admin-token.ts).
 *    When the header is there, it alone decides: a cookie beside it is ignored.
 *  - otherwise the admin portal's session cookie, with the admin role checked
 *    against the database as the portal pages check it. A browser sends that
 *    cookie on its own, so a state-changing request must come from the issuer's
 *    own origin (its Origin header; Fetch sends one on every non-GET request).
 *    Bearer requests need no such check: no browser adds that header by itself.
 * Failures are RFC 6750 §3: 401 with a Bearer challenge (its `error` only when
 * a token was presented), 403 with `insufficient_scope` for a token that may
 * not do this.
 */
import { bearerToken } from '../../http/bearer.ts';
import type { AdminTokenCheck } from '../../oidc/admin-token.ts';
import { ADMIN_SCOPE } from '../../oidc/scopes.ts';
import type { AdminAccess, AdminUser } from '../portal/access.ts';
import type { AdminRole } from '../../admin-roles/roles.ts';
import { Forbidden, Unauthorized } from '../../platform/errors.ts';

/** Who calls, with the admin role they act with: the signed-in admin's, or the client's own (its `admin_role`). */
export type AdminCaller = { kind: 'session'; admin: AdminUser } | { kind: 'client'; clientId: string; role: AdminRole };

/** A Bearer token's check (lib/oidc/admin-token.ts), with the admin role of the client it names. */
export type BearerCheck = Exclude<AdminTokenCheck, { kind: 'client' }> | { kind: 'client'; clientId: string; role: AdminRole };

/** The admin role a caller acts with: what the operations table's permission is checked against. */
export const callerRole = (caller: AdminCaller): AdminRole => (caller.kind === 'session' ? caller.admin.role : caller.role);

/** Where the two kinds of credentials are checked (the server's, or a test's). */
export interface AuthSources {
  /** The issuer's origin: the realm, and the only origin cookie-authenticated changes may come from. */
  issuer: string;
  session(): Promise<AdminAccess>;
  bearer(token: string): Promise<BearerCheck>;
}

/** Methods that change nothing (RFC 9110 §9.2.1): no same-origin check for them. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const quoted = (value: string) => `"${value.replace(/["\\]/g, '')}"`;

export function bearerChallenge(issuer: string, error?: { code: 'invalid_token' | 'invalid_request' | 'insufficient_scope'; description: string }): string {
  const parts = [`realm=${quoted(`${issuer}/api/admin`)}`];
  if (error) parts.push(`error=${quoted(error.code)}`, `error_description=${quoted(error.description)}`);
  if (error?.code === 'insufficient_scope') parts.push(`scope=${quoted(ADMIN_SCOPE)}`);
  return `Bearer ${parts.join(', ')}`;
}

/** The token of an `Authorization: Bearer` header (RFC 6750 §2.1), '' for a malformed one, undefined without the header. */
export function presentedBearer(request: Request): string | undefined {
  const header = request.headers.get('authorization');
  if (header === null) return undefined;
  return bearerToken(header) ?? '';
}

export async function authorizeAdminRequest(request: Request, sources: AuthSources): Promise<AdminCaller> {
  const token = presentedBearer(request);
  if (token !== undefined) return authorizeBearer(token, sources);

  const access = await sources.session();
  if (access.kind === 'signed_out') {
    throw new Unauthorized('sign in to the admin portal, or send an access token with the admin scope', {
      headers: { 'www-authenticate': bearerChallenge(sources.issuer) },
    });
  }
  if (access.kind === 'forbidden') throw new Forbidden('only administrators may use the admin API');
  if (access.kind === 'enrol') throw new Forbidden('administrators must set up two-step verification first, at /account/security');
  if (!SAFE_METHODS.has(request.method) && request.headers.get('origin') !== sources.issuer) {
    throw new Forbidden('a change made with the portal session must come from the portal itself (Origin header)');
  }
  return { kind: 'session', admin: access.admin };
}

async function authorizeBearer(token: string, sources: AuthSources): Promise<AdminCaller> {
  if (!token) {
    const description = 'the Authorization header must be "Bearer <access token>"';
    throw new Unauthorized(description, { headers: { 'www-authenticate': bearerChallenge(sources.issuer, { code: 'invalid_request', description }) } });
  }
  const check = await sources.bearer(token);
  if (check.kind === 'invalid') {
    const description = 'the access token is invalid, expired or revoked';
    throw new Unauthorized(description, { headers: { 'www-authenticate': bearerChallenge(sources.issuer, { code: 'invalid_token', description }) } });
  }
  if (check.kind === 'insufficient_scope') {
    const description = `the access token lacks the ${ADMIN_SCOPE} scope of an admin-API client`;
    throw new Forbidden(description, { headers: { 'www-authenticate': bearerChallenge(sources.issuer, { code: 'insufficient_scope', description }) } });
  }
  return { kind: 'client', clientId: check.clientId, role: check.role };
}
