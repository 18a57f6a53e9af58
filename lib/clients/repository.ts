/**
 * Registered clients. The provider reads them on every request that names a
 * client (raw prepared statement, lib/db/sql.ts); the CLI and the portal manage
 * them through Prisma. Nothing here returns the secret hash except the one
 * function the provider's client authentication uses.
 */
import type { Client } from '../generated/sqlite/client.ts';
import type { IdTokenSigningAlg } from '../oidc/algorithms.ts';
import { honouredTrust } from '../oidc/client-policy.ts';
import type { CachedClientMetadata, Database } from '../db/database.ts';
import { columnList, recordById, type RawRow } from '../db/rows.ts';
import { containsText } from '../db/text-search.ts';
import { registrationFields } from './fields.ts';
import { ADMIN_ROLES, type AdminRole } from '../admin-roles/roles.ts';

/** Wire-level client metadata as oidc-provider consumes it (RFC 7591 names). */
export interface ClientMetadata {
  client_id: string;
  client_name: string;
  /** SHA-256 of the secret; compared by lib/oidc/client-secret.ts, never shown. */
  client_secret?: string;
  redirect_uris: string[];
  post_logout_redirect_uris: string[];
  grant_types: string[];
  response_types: string[];
  scope: string;
  token_endpoint_auth_method: string;
  application_type: string;
  logo_uri?: string;
  first_party: boolean;
  resource_server: boolean;
  /** May obtain the `admin` scope with client_credentials and call /api/admin. */
  admin_api: boolean;
  /** JWS alg of its ID tokens (OIDC Dynamic Client Registration §2). */
  id_token_signed_response_alg: IdTokenSigningAlg;
  /** Every sign-in for it ends with a second factor (lib/oidc/step-up.ts). */
  require_second_factor: boolean;
  /** OpenID Connect Back-Channel Logout 1.0 §2.2: where its logout tokens go (lib/logout/). */
  backchannel_logout_uri?: string;
  backchannel_logout_session_required?: boolean;
  /** RFC 9126 §6; only present when true, so nothing changes for other clients. */
  require_pushed_authorization_requests?: boolean;
  /** RFC 9101 §10.5 (via RFC 7591): every request object signed with this alg. */
  request_object_signing_alg?: string;
  /** RFC 9101 §10.5: set with the alg, so the client's requests are request objects, never plain parameters. */
  require_signed_request_object?: boolean;
  /** RFC 7591 §2: the client's public keys (its request objects' signatures). */
  jwks?: { keys: object[] };
  /** RFC 9449 §5.2. */
  dpop_bound_access_tokens?: boolean;
  /** OIDC Core §8; absent for public subjects. */
  subject_type?: 'pairwise';
  sector_identifier_uri?: string;
}

/** The columns that hold JSON text, as the lists they hold. */
interface ClientLists {
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  grantTypes: string[];
}

/** A client as the CLI, the portal and the API see it (the model's fields, lists parsed): no secret material. */
export type ClientRecord = Omit<Client, 'secretHash' | keyof ClientLists | 'idTokenSignedResponseAlg' | 'subjectType' | 'adminRole'> &
  ClientLists & {
    confidential: boolean;
    idTokenSignedResponseAlg: IdTokenSigningAlg;
    subjectType: SubjectType;
    /** The admin role an admin-API client acts with (lib/admin-roles/roles.ts); meaningless without `adminApi`. */
    adminRole: AdminRole;
  };

/** OIDC Core §8: one `sub` for every client, or one per sector. */
export const SUBJECT_TYPES = ['public', 'pairwise'] as const;
export type SubjectType = (typeof SUBJECT_TYPES)[number];

/** The protocol features an update may leave out: the client keeps what it has (its defaults when new). */
type ProtocolFields =
  | 'requirePushedAuthorizationRequests'
  | 'requestObjectSigningAlg'
  | 'jwks'
  | 'dpopBoundAccessTokens'
  | 'subjectType'
  | 'sectorIdentifierUri';

/**
 * What registering a client stores: its record without what the database sets, and the secret's hash.
 * `requireSecondFactor` left out is the column's default, false (an update leaves it as it is).
 */
export type NewClient = Omit<
  ClientRecord,
  | 'confidential'
  | 'enabled'
  | 'createdAt'
  | 'updatedAt'
  | 'requireSecondFactor'
  | 'adminRole'
  | 'backchannelLogoutUri'
  | 'backchannelLogoutSessionRequired'
  | 'registeredDynamically'
  | 'approvalPending'
  | 'initialAccessTokenId'
  | 'lastUsedAt'
  | ProtocolFields
> & {
  secretHash: string | null;
  requireSecondFactor?: boolean;
  /** Left out: the column's default, `admin`. */
  adminRole?: AdminRole;
  backchannelLogoutUri?: string | null;
  backchannelLogoutSessionRequired?: boolean;
  /** Set only by self-registration (lib/registration/clients.ts). */
  registeredDynamically?: boolean;
  approvalPending?: boolean;
  initialAccessTokenId?: string | null;
} & Partial<Pick<ClientRecord, ProtocolFields>>;

/** What the provider reads of an enabled client, on every request that names one (raw driver). */
const metadataFields = ['id', 'secretHash', 'applicationType', ...registrationFields] as const;

/** A `clients` row as the provider's prepared statement reads it (booleans are 0/1 on SQLite). */
export type ClientRow = RawRow<Client, (typeof metadataFields)[number]>;

const metadataQuery = `SELECT ${columnList<Client>(metadataFields)} FROM clients WHERE id = ? AND enabled = ? AND approval_pending = ?`;
const registeredQuery = `SELECT ${columnList<Client>(metadataFields)} FROM clients WHERE id = ? AND enabled = ? AND registered_dynamically = ?`;

/**
 * The metadata of an enabled client, or undefined: a disabled client, or a self-registered one waiting for
 * approval, is, to the provider, unknown.
 */
export async function findClientMetadata(db: Database, clientId: string): Promise<ClientMetadata | undefined> {
  const row = await db.sql.one<ClientRow>(metadataQuery, [clientId, true, false]);
  return row ? toClientMetadata(row) : undefined;
}

/** A self-registered client's metadata, waiting for approval or not: what managing its registration reads (RFC 7592). */
export async function findRegisteredClientMetadata(db: Database, clientId: string): Promise<ClientMetadata | undefined> {
  const row = await db.sql.one<ClientRow>(registeredQuery, [clientId, true, true]);
  return row ? toClientMetadata(row) : undefined;
}

/**
 * The provider reads a client's metadata on every token, introspection and
 * userinfo request: a SELECT, JSON parsing, and on PostgreSQL a round trip.
 * The process keeps what it read for CLIENT_CACHE_TTL_MS. Every change made
 * through this module (the portal, the admin API, the CLI in its own process)
 * forgets the client here at once; another process (another worker, a second
 * instance, the CLI while the server runs) forgets it when the read cache hears
 * of the change (lib/db/database.ts watchClients): on SQLite before this cache
 * is read, on PostgreSQL when the notification arrives, and within the TTL
 * should it be lost. Unknown ids are never kept, so random client_ids cannot
 * fill the map.
 */
export const CLIENT_CACHE_TTL_MS = 2_000;
const CLIENT_CACHE_MAX = 10_000;

/** findClientMetadata through the handle's short-lived cache (`db.clientMetadata`): what the provider's adapter uses. */
export function cachedClientMetadata(db: Database, clientId: string, now: number): Promise<ClientMetadata | undefined> {
  // A change another worker committed on SQLite empties this cache first (lib/db/read-cache.ts).
  db.cache.follow();
  const cache = db.clientMetadata;
  const hit = cache.get(clientId);
  if (hit && hit.expiresAt > now) return hit.metadata;
  if (cache.size >= CLIENT_CACHE_MAX) cache.clear();
  // Stored before the read completes: concurrent misses share one read, and a
  // change made meanwhile (forgetClientMetadata) removes this very entry.
  const entry: CachedClientMetadata = { metadata: findClientMetadata(db, clientId), expiresAt: now + CLIENT_CACHE_TTL_MS };
  cache.set(clientId, entry);
  const drop = () => {
    if (cache.get(clientId) === entry) cache.delete(clientId);
  };
  entry.metadata.then((metadata) => metadata ?? drop(), drop);
  return entry.metadata;
}

/** Called by every change to a client, before it returns. */
export function forgetClientMetadata(db: Database, clientId: string): void {
  db.clientMetadata.delete(clientId);
}

/** A row as oidc-provider's client metadata (RFC 7591 / OIDC Dynamic Client Registration §2 names). */
export function toClientMetadata(row: ClientRow): ClientMetadata {
  const grantTypes = JSON.parse(row.grant_types) as string[];
  // A row written before the rule, or past the schema, is honoured only as far as
  // the rule allows (lib/oidc/client-policy.ts); reportClientPolicyViolations names it at start.
  const trust = honouredTrust({
    confidential: row.secret_hash !== null && row.token_endpoint_auth_method !== 'none',
    grantTypes,
    scopes: row.scope.split(' ').filter(Boolean),
    resourceServer: Boolean(row.resource_server),
  });
  return {
    client_id: row.id,
    client_name: row.name,
    ...(row.secret_hash ? { client_secret: row.secret_hash } : {}),
    redirect_uris: JSON.parse(row.redirect_uris) as string[],
    post_logout_redirect_uris: JSON.parse(row.post_logout_redirect_uris) as string[],
    grant_types: grantTypes,
    // Only the code flow exists here (discovery advertises response_types ["code"]).
    response_types: grantTypes.includes('authorization_code') ? ['code'] : [],
    scope: trust.scopes.join(' '),
    token_endpoint_auth_method: row.token_endpoint_auth_method,
    application_type: row.application_type,
    ...(row.logo_uri ? { logo_uri: row.logo_uri } : {}),
    first_party: Boolean(row.first_party),
    resource_server: trust.resourceServer,
    admin_api: Boolean(row.admin_api),
    id_token_signed_response_alg: row.id_token_signed_response_alg as IdTokenSigningAlg,
    require_second_factor: Boolean(row.require_second_factor),
    // Recognised by the provider only with BACKCHANNEL_LOGOUT=on (features.backchannelLogout), which drops them otherwise.
    ...(row.backchannel_logout_uri
      ? { backchannel_logout_uri: row.backchannel_logout_uri, backchannel_logout_session_required: Boolean(row.backchannel_logout_session_required) }
      : {}),
    // The protocol features below are absent unless set, so a client without them reads exactly as before.
    ...(row.require_pushed_authorization_requests ? { require_pushed_authorization_requests: true } : {}),
    ...(row.request_object_signing_alg ? { request_object_signing_alg: row.request_object_signing_alg, require_signed_request_object: true } : {}),
    ...(row.jwks ? { jwks: JSON.parse(row.jwks) as { keys: object[] } } : {}),
    ...(row.dpop_bound_access_tokens ? { dpop_bound_access_tokens: true } : {}),
    ...(row.subject_type === 'pairwise' ? { subject_type: 'pairwise' as const } : {}),
    ...(row.sector_identifier_uri ? { sector_identifier_uri: row.sector_identifier_uri } : {}),
  };
}

/** A stored admin role; an unknown one (a hand-edited row) is the least: read-only. */
function toAdminRole(value: string): AdminRole {
  return (ADMIN_ROLES as readonly string[]).includes(value) ? (value as AdminRole) : 'auditor';
}

function toRecord(row: Client): ClientRecord {
  return {
    id: row.id,
    name: row.name,
    confidential: row.secretHash !== null,
    redirectUris: JSON.parse(row.redirectUris) as string[],
    postLogoutRedirectUris: JSON.parse(row.postLogoutRedirectUris) as string[],
    grantTypes: JSON.parse(row.grantTypes) as string[],
    scope: row.scope,
    tokenEndpointAuthMethod: row.tokenEndpointAuthMethod,
    applicationType: row.applicationType,
    logoUri: row.logoUri,
    firstParty: row.firstParty,
    resourceServer: row.resourceServer,
    adminApi: row.adminApi,
    adminRole: toAdminRole(row.adminRole),
    idTokenSignedResponseAlg: row.idTokenSignedResponseAlg as IdTokenSigningAlg,
    requireSecondFactor: row.requireSecondFactor,
    backchannelLogoutUri: row.backchannelLogoutUri,
    backchannelLogoutSessionRequired: row.backchannelLogoutSessionRequired,
    registeredDynamically: row.registeredDynamically,
    approvalPending: row.approvalPending,
    initialAccessTokenId: row.initialAccessTokenId,
    lastUsedAt: row.lastUsedAt,
    requirePushedAuthorizationRequests: row.requirePushedAuthorizationRequests,
    requestObjectSigningAlg: row.requestObjectSigningAlg,
    jwks: row.jwks,
    dpopBoundAccessTokens: row.dpopBoundAccessTokens,
    subjectType: row.subjectType === 'pairwise' ? 'pairwise' : 'public',
    sectorIdentifierUri: row.sectorIdentifierUri,
    enabled: row.enabled,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export async function insertClient(db: Database, client: NewClient): Promise<ClientRecord> {
  forgetClientMetadata(db, client.id);
  const row = await db.prisma.client.create({
    data: {
      ...client,
      redirectUris: JSON.stringify(client.redirectUris),
      postLogoutRedirectUris: JSON.stringify(client.postLogoutRedirectUris),
      grantTypes: JSON.stringify(client.grantTypes),
    },
  });
  return toRecord(row);
}

export async function listClients(db: Database): Promise<ClientRecord[]> {
  const rows = await db.prisma.client.findMany({ orderBy: { createdAt: 'asc' } });
  return rows.map(toRecord);
}

export function findClient(db: Database, id: string): Promise<ClientRecord | undefined> {
  return recordById((args) => db.prisma.client.findUnique(args), id, toRecord);
}

/** Returns whether a client was deleted. */
export async function deleteClient(db: Database, id: string): Promise<boolean> {
  const { count } = await db.prisma.client.deleteMany({ where: { id } });
  forgetClientMetadata(db, id);
  return count === 1;
}

export async function setClientEnabled(db: Database, id: string, enabled: boolean): Promise<boolean> {
  const { count } = await db.prisma.client.updateMany({ where: { id }, data: { enabled } });
  forgetClientMetadata(db, id);
  return count === 1;
}

export async function setClientSecretHash(db: Database, id: string, secretHash: string): Promise<boolean> {
  const { count } = await db.prisma.client.updateMany({ where: { id, secretHash: { not: null } }, data: { secretHash } });
  forgetClientMetadata(db, id);
  return count === 1;
}

/**
 * One page of clients, newest first, whose name or client_id contains `query`
 * (literally, ignoring case: lib/db/text-search.ts), and how many match in all.
 */
/** The columns a list of clients may be ordered by. */
export const CLIENT_SORTS = ['name', 'type', 'status', 'createdAt'] as const;
export type ClientSort = { column: (typeof CLIENT_SORTS)[number]; direction: 'asc' | 'desc' };

const clientOrder = ({ column, direction }: ClientSort) =>
  column === 'type' ? { confidential: direction } : column === 'status' ? { enabled: direction } : { [column]: direction };

/** One page of clients, newest first unless `sort` says otherwise (the id breaks ties, so pages never overlap). */
export async function searchClients(
  db: Database,
  { query, skip, take, sort }: { query?: string; skip: number; take: number; sort?: ClientSort },
): Promise<{ clients: ClientRecord[]; total: number }> {
  const contains = (value: string) => containsText(db.sql.kind, value);
  const where = query ? { OR: [{ name: contains(query) }, { id: contains(query) }] } : {};
  const orderBy = [
    sort ? clientOrder(sort) : { createdAt: 'desc' as const },
    ...(sort?.column === 'createdAt' ? [] : [{ createdAt: 'desc' as const }]),
    { id: 'asc' as const },
  ];
  const [rows, total] = await Promise.all([db.prisma.client.findMany({ where, orderBy, skip, take }), db.prisma.client.count({ where })]);
  return { clients: rows.map(toRecord), total };
}

/** Replaces a client's metadata (not its id, secret or enabled state); returns the updated client. */
export async function updateClient(db: Database, id: string, client: Omit<NewClient, 'id' | 'secretHash'>): Promise<ClientRecord | undefined> {
  const { count } = await db.prisma.client.updateMany({
    where: { id },
    data: {
      ...client,
      redirectUris: JSON.stringify(client.redirectUris),
      postLogoutRedirectUris: JSON.stringify(client.postLogoutRedirectUris),
      grantTypes: JSON.stringify(client.grantTypes),
    },
  });
  forgetClientMetadata(db, id);
  return count === 1 ? findClient(db, id) : undefined;
}

/** An admin approved a self-registered client: from now on it is a client like any other. */
export async function clearApprovalPending(db: Database, id: string): Promise<boolean> {
  const { count } = await db.prisma.client.updateMany({ where: { id, approvalPending: true }, data: { approvalPending: false } });
  forgetClientMetadata(db, id);
  return count === 1;
}

/** Notes that a self-registered client got a token, at most once an hour (one UPDATE that matches nothing otherwise). */
export async function noteClientUsed(db: Database, id: string, now: number): Promise<void> {
  await db.prisma.client.updateMany({
    where: { id, registeredDynamically: true, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: new Date(now - 3_600_000) } }] },
    data: { lastUsedAt: new Date(now) },
  });
}

/** Enabled self-registered clients that got no token since `before` (or, never used, were registered before it). */
export async function unusedRegisteredClients(db: Database, before: Date): Promise<Array<{ id: string; name: string }>> {
  return db.prisma.client.findMany({
    where: {
      registeredDynamically: true,
      enabled: true,
      OR: [{ lastUsedAt: { lt: before } }, { lastUsedAt: null, createdAt: { lt: before } }],
    },
    select: { id: true, name: true },
  });
}
