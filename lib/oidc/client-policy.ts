/**
 * The trust a client's registration may carry, as one rule for the three places
 * that need it: the registration schema refuses what breaks it
 * (lib/clients/manage.ts), the provider never honours it from a stored row
 * (lib/clients/repository.ts), and the start reports such rows
 * (reportClientPolicyViolations in lib/clients/policy-report.ts).
 *
 * - A resource server may introspect other clients' tokens. RFC 7662 §2.1 and §4
 *   require the endpoint to authorise its caller, and a public client proves
 *   nothing but a client_id anyone can send (RFC 6749 §2.1): only a confidential
 *   client can be a resource server.
 * - The `introspect` scope lets an access token call the introspection endpoint
 *   (lib/oidc/introspection.ts). Like `admin`, it must never reach a person's
 *   token: only a resource server holds it, with the client_credentials grant alone.
 */
import { INTROSPECT_SCOPE } from './scopes.ts';

export interface ClientTrust {
  confidential: boolean;
  grantTypes: readonly string[];
  scopes: readonly string[];
  resourceServer: boolean;
}

export type TrustViolation = 'public_resource_server' | 'introspect_without_resource_server' | 'introspect_with_user_grant';

/** Only client_credentials, the grant that issues tokens to the client itself (RFC 6749 §4.4). */
export const clientCredentialsOnly = (grantTypes: readonly string[]) => grantTypes.length > 0 && grantTypes.every((grant) => grant === 'client_credentials');

export function trustViolations(c: ClientTrust): TrustViolation[] {
  const violations: TrustViolation[] = [];
  if (c.resourceServer && !c.confidential) violations.push('public_resource_server');
  if (c.scopes.includes(INTROSPECT_SCOPE)) {
    if (!c.resourceServer) violations.push('introspect_without_resource_server');
    if (!clientCredentialsOnly(c.grantTypes)) violations.push('introspect_with_user_grant');
  }
  return violations;
}

/**
 * What the provider honours of a stored registration: a public client is no
 * resource server, and the introspect scope stays only with a confidential
 * resource server that has the client_credentials grant alone.
 */
export function honouredTrust(c: ClientTrust): { resourceServer: boolean; scopes: string[] } {
  const resourceServer = c.resourceServer && c.confidential;
  const keepIntrospect = resourceServer && clientCredentialsOnly(c.grantTypes);
  return { resourceServer, scopes: c.scopes.filter((scope) => scope !== INTROSPECT_SCOPE || keepIntrospect) };
}

/** A resource server that authenticates with a secret, as the provider holds the client. */
export function isConfidentialResourceServer(client: { clientAuthMethod?: string; metadata(): Record<string, unknown> }): boolean {
  return client.metadata().resource_server === true && (client.clientAuthMethod ?? 'none') !== 'none';
}
