/**
 * Clients that register themselves (RFC 7591) and manage their registration (RFC 7592), as oidc-provider
 * hands them to the adapter (`Client.upsert`, `Client.destroy`): its validated metadata, in RFC 7591's names,
 * checked once more against the rules every client of Gatehouse follows (newClientSchema: exact https
 * redirect URIs, the trust rules) and stored in `clients` beside the ones admins register, so the portal,
 * the CLI and the admin API show them. What only an admin may grant (first party, resource server, the
 * admin API) a client cannot ask for. An admin approves a pending one; the unused ones are disabled.
 */
import { errors } from 'oidc-provider';
import { clientActor, recordAudit, recordAuditBy, type AuditBy } from '../audit/log.ts';
import { destroyArtifactsOfClient } from '../db/artifacts.ts';
import type { Database } from '../db/database.ts';
import { commonClientFields, newClientSchema, type NewClientInput } from '../clients/manage.ts';
import {
  clearApprovalPending,
  deleteClient as deleteClientRow,
  findClient,
  insertClient,
  setClientEnabled,
  unusedRegisteredClients,
  updateClient as updateClientRow,
  type ClientRecord,
} from '../clients/repository.ts';
import { registrationFields } from '../clients/fields.ts';
import { hashClientSecret } from '../oidc/client-secret.ts';
import { Conflict, NotFound } from '../platform/errors.ts';
import type { RegistrationRequest } from './scope.ts';
import { takeRegistrationSlot } from './tokens.ts';

/** Client metadata only an admin sets (lib/oidc/configuration.ts extraClientMetadata): refused when a client asks for it. */
const ADMIN_ONLY = ['first_party', 'resource_server', 'admin_api'] as const;

/** Scopes a client that names none gets (RFC 7591 §2: the server's default). */
const DEFAULT_SCOPES = ['openid', 'profile', 'email'];

const strings = (value: unknown) => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/** RFC 7591 metadata as the registration schema's input; its issues in the RFC's error codes (§3.2.2). */
function registrationInput(clientId: string, metadata: Record<string, unknown>, defaultScopes: string[]): NewClientInput {
  for (const key of ADMIN_ONLY) {
    if (metadata[key] === true) throw new errors.InvalidClientMetadata(`${key} is granted by an administrator, not registered`);
  }
  const method = typeof metadata.token_endpoint_auth_method === 'string' ? metadata.token_endpoint_auth_method : 'client_secret_basic';
  const scope = typeof metadata.scope === 'string' ? metadata.scope.split(' ').filter(Boolean) : defaultScopes;
  const input = {
    name: typeof metadata.client_name === 'string' && metadata.client_name.trim() ? metadata.client_name.slice(0, 128) : clientId,
    type: method === 'none' ? 'public' : 'confidential',
    redirectUris: strings(metadata.redirect_uris),
    postLogoutRedirectUris: strings(metadata.post_logout_redirect_uris),
    grantTypes: strings(metadata.grant_types),
    scopes: scope,
    tokenEndpointAuthMethod: method,
    logoUri: typeof metadata.logo_uri === 'string' ? metadata.logo_uri : null,
    firstParty: false,
    resourceServer: false,
    adminApi: false,
    idTokenSignedResponseAlg: metadata.id_token_signed_response_alg,
    requireSecondFactor: metadata.require_second_factor === true,
    backchannelLogoutUri: typeof metadata.backchannel_logout_uri === 'string' ? metadata.backchannel_logout_uri : null,
    backchannelLogoutSessionRequired: metadata.backchannel_logout_session_required === true,
  } as NewClientInput;
  const result = newClientSchema.safeParse(input);
  if (!result.success) {
    const [issue] = result.error.issues;
    const field = String(issue.path[0] ?? '');
    const message = issue.message;
    throw field === 'redirectUris' || field === 'postLogoutRedirectUris' ? new errors.InvalidRedirectUri(message) : new errors.InvalidClientMetadata(message);
  }
  return input;
}

/** What an admin's registration stores, without trust (first party, resource server, admin API): only an admin gives that. */
function storedFields(c: NewClientInput) {
  return { ...commonClientFields(newClientSchema.parse(c)), firstParty: false, resourceServer: false, adminApi: false };
}

/**
 * Stores what the provider registered (a new client_id) or updated (one it already has): the adapter's
 * `Client.upsert`. A new one takes a registration of its initial access token, and waits for approval when
 * the token (or, without one, the operator's setting) says so.
 */
export async function storeRegisteredClient(
  db: Database,
  clientId: string,
  metadata: Record<string, unknown>,
  request: RegistrationRequest,
  now: number,
): Promise<void> {
  const existing = await findClient(db, clientId);
  const token = request.initialAccessToken;
  const input = registrationInput(
    clientId,
    metadata,
    existing ? existing.scope.split(' ') : (token?.scopes.filter((s) => DEFAULT_SCOPES.includes(s)) ?? DEFAULT_SCOPES),
  );
  const fields = storedFields(input);
  const secret = typeof metadata.client_secret === 'string' ? metadata.client_secret : undefined;
  const by: AuditBy = { actor: clientActor(clientId), context: request.context };
  if (existing) {
    if (!existing.registeredDynamically) throw new errors.InvalidClientMetadata('this client is managed by an administrator');
    // Turning one into the other would need a secret made or thrown away: a new client, not an edit.
    if (existing.confidential !== (input.type === 'confidential')) {
      throw new errors.InvalidClientMetadata(
        `a ${existing.confidential ? 'confidential' : 'public'} client stays ${existing.confidential ? 'confidential' : 'public'}`,
      );
    }
    const updated = await updateClientRow(db, clientId, fields);
    if (!updated) throw new NotFound(`no client ${clientId}`);
    const changed = registrationFields.filter((f) => JSON.stringify(existing[f]) !== JSON.stringify(updated[f]));
    request.stored = { clientId, created: false, pending: updated.approvalPending };
    if (changed.length) await recordAuditBy(db, by, { action: 'client.registration_updated', target: target(updated), details: { changed } });
    return;
  }
  if (token && !(await takeRegistrationSlot(db, token.id, now))) {
    throw new errors.InvalidToken('the initial access token has no registrations left, has expired or was revoked');
  }
  const pending = token ? token.requireApproval : request.pendingWithoutToken === true;
  const client = await insertClient(db, {
    id: clientId,
    // The provider made the secret (secretFactory) and answers it once; only its hash is kept.
    secretHash: input.type === 'confidential' && secret ? hashClientSecret(secret) : null,
    ...fields,
    registeredDynamically: true,
    approvalPending: pending,
    initialAccessTokenId: token?.id ?? null,
  });
  request.stored = { clientId, created: true, pending };
  await recordAuditBy(db, by, {
    action: 'client.registered',
    target: target(client),
    details: {
      ...(token ? { registeredWith: token.id } : {}),
      pending,
      confidential: client.confidential,
      grantTypes: client.grantTypes,
      scopes: client.scope.split(' ').filter(Boolean),
      redirectUris: client.redirectUris,
    },
  });
}

/** RFC 7592 §2.3: the client deletes its own registration; what was issued to it goes too. */
export async function deleteRegisteredClient(db: Database, clientId: string, request: RegistrationRequest | undefined): Promise<void> {
  const existing = await findClient(db, clientId);
  if (!existing?.registeredDynamically) throw new errors.InvalidClientMetadata('this client is managed by an administrator');
  await deleteClientRow(db, clientId);
  await destroyArtifactsOfClient(db, clientId);
  await recordAuditBy(
    db,
    { actor: clientActor(clientId), context: request?.context },
    { action: 'client.registration_deleted', target: target(existing), details: {} },
  );
}

const target = (client: { id: string; name: string }) => ({ type: 'client' as const, id: client.id, label: client.name });

/** An admin lets a pending self-registered client sign people in. */
export async function approveClient(db: Database, id: string, by?: AuditBy): Promise<ClientRecord> {
  const client = await findClient(db, id);
  if (!client) throw new NotFound(`no client ${id}`);
  if (!client.approvalPending) throw new Conflict('this client is not waiting for approval');
  await clearApprovalPending(db, id);
  await recordAuditBy(db, by, { action: 'client.approved', target: target(client), details: {} });
  return (await findClient(db, id)) ?? client;
}

/** Disables the self-registered clients that got no token for `days` days; returns how many. */
export async function disableUnusedClients(db: Database, days: number, now: number): Promise<number> {
  if (!(days > 0)) return 0;
  const unused = await unusedRegisteredClients(db, new Date(now - days * 86_400_000));
  for (const client of unused) {
    if (!(await setClientEnabled(db, client.id, false))) continue;
    const revokedArtifacts = await destroyArtifactsOfClient(db, client.id);
    await recordAudit(db, { action: 'client.disabled', actor: null, target: target(client), details: { revokedArtifacts, reason: 'unused' } });
  }
  return unused.length;
}

/** Every `intervalMs` (hourly), for the process's life; returns the stop. */
export function startUnusedClientSweep(
  db: Database,
  { days, now, log, intervalMs = 3_600_000 }: { days: number; now: () => number; log: (line: string) => void; intervalMs?: number },
) {
  if (!(days > 0)) return () => {};
  const run = () =>
    disableUnusedClients(db, days, now()).then(
      (count) => count > 0 && log(`dynamic registration: disabled ${count} self-registered client(s) unused for ${days} days`),
      (error: unknown) => log(`dynamic registration: the sweep of unused clients failed: ${(error as Error)?.name ?? 'error'}`),
    );
  void run();
  const timer = setInterval(run, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
