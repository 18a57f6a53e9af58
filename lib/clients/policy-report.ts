/**
 * At start: the stored clients whose registration breaks the trust rule of
 * lib/oidc/client-policy.ts (rows written before the rule existed, or past the
 * registration schema). The provider already ignores what breaks it
 * (toClientMetadata, lib/clients/repository.ts); this says so to the operator, one line
 * per client, with what is no longer honoured and how to fix the registration.
 */
import { listClients, type ClientRecord } from './repository.ts';
import type { Database } from '../db/database.ts';
import { trustViolations, type TrustViolation } from '../oidc/client-policy.ts';
import { INTROSPECT_SCOPE } from '../oidc/scopes.ts';

export interface ClientPolicyViolation {
  client: ClientRecord;
  violations: TrustViolation[];
}

const explained: Record<TrustViolation, (c: ClientRecord) => string> = {
  public_resource_server: () =>
    'it is a public client marked as a resource server, so it is no longer treated as one (a public client cannot authenticate, and may introspect only its own tokens); ' +
    'register the API as a confidential client with the client_credentials grant instead, or clear its resource-server flag',
  introspect_without_resource_server: () =>
    `it holds the ${INTROSPECT_SCOPE} scope without being a confidential resource server, so that scope is no longer granted; remove the scope`,
  introspect_with_user_grant: (c) =>
    `it holds the ${INTROSPECT_SCOPE} scope beside the ${c.grantTypes.filter((g) => g !== 'client_credentials').join(' and ')} grant, ` +
    `so that scope is no longer granted (it would reach people's tokens); keep client_credentials as its only grant, or remove the scope`,
};

/**
 * How a stored client breaks the rule, if it does (judged as lib/clients/repository.ts's toClientMetadata judges the row).
 * The portal's client page words each in its language (the catalogs' admin.client.policy).
 */
export function violationsOf(client: ClientRecord): TrustViolation[] {
  return trustViolations({
    confidential: client.confidential && client.tokenEndpointAuthMethod !== 'none',
    grantTypes: client.grantTypes,
    scopes: client.scope.split(' ').filter(Boolean),
    resourceServer: client.resourceServer,
  });
}

/** Every stored client that breaks the rule. */
export async function clientPolicyViolations(db: Database): Promise<ClientPolicyViolation[]> {
  const found: ClientPolicyViolation[] = [];
  for (const client of await listClients(db)) {
    const violations = violationsOf(client);
    if (violations.length) found.push({ client, violations });
  }
  return found;
}

/**
 * Logs one line per client that breaks the rule, naming what is no longer
 * honoured and how to fix it (the admin portal's edit page or PATCH
 * /api/admin/clients/{id}). Called once at start; returns what it found.
 */
export async function reportClientPolicyViolations(db: Database, log: (line: string) => void): Promise<ClientPolicyViolation[]> {
  const found = await clientPolicyViolations(db);
  for (const { client, violations } of found) {
    const reasons = violations.map((v) => explained[v](client)).join('; also, ');
    const id = encodeURIComponent(client.id);
    log(
      `client "${client.name}" (client_id ${client.id}${client.enabled ? '' : ', disabled'}) breaks the client trust rule: ${reasons}. ` +
        `Edit it at /admin/clients/${id}/edit or with PATCH /api/admin/clients/${id}.`,
    );
  }
  return found;
}
