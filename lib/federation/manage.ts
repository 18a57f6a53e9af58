/**
 * The admins' use cases for connections (the CLI, the admin API, the portal) and for the identities
 * people hold through them (/account, the portal): validated with one zod schema, every change
 * audited. Endpoints must be https, except on loopback addresses (a provider on the same machine,
 * the tests). A preset (lib/federation/presets.ts) only fills in this same input.
 */
import { z } from 'zod';
import { recordAuditBy, type AuditBy } from '../audit/log.ts';
import type { Database } from '../db/database.ts';
import { Conflict, Forbidden, NotFound, parseInput } from '../platform/errors.ts';
import { findCredentialsById } from '../users/repository.ts';
import { countPasskeys } from '../factors/repository.ts';
import {
  countIdentitiesOfConnection,
  deleteConnection as deleteConnectionRow,
  deleteIdentity,
  findConnectionBySlug,
  insertConnection,
  listConnections,
  listIdentitiesOf,
  updateConnection as updateConnectionRow,
  type ConnectionRecord,
  type ConnectionWrite,
  type IdentityRecord,
} from './repository.ts';
import { isLoopbackHttp } from './loopback.ts';

const endpoint = z
  .string()
  .trim()
  .max(2000)
  .refine((value) => {
    const url = URL.parse(value);
    return Boolean(url && !url.username && !url.password && !url.hash && (url.protocol === 'https:' || isLoopbackHttp(value)));
  }, 'Must be an https URL (http only for loopback addresses), without credentials or fragment');

const claim = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_.:-]{1,100}$/, 'A claim name: letters, digits and _ . : -');

export const slugSchema = z
  .string()
  .trim()
  .regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'Slug: lowercase letters, digits and dashes, starting with a letter or digit');

const domain = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, 'Not a domain name');

/** Every field of a connection; `create` applies the defaults, `update` takes any subset. */
const fields = {
  kind: z.enum(['oidc', 'oauth2']),
  slug: slugSchema,
  displayName: z.string().trim().min(1, 'Display name is required').max(80),
  icon: z
    .string()
    .regex(/^[a-z0-9-]{1,60}\.(svg|png)$/, 'An icon is a file name under public/connections/ (e.g. google.svg)')
    .nullable(),
  enabled: z.boolean(),
  issuer: endpoint.nullable(),
  authorizationEndpoint: endpoint.nullable(),
  tokenEndpoint: endpoint.nullable(),
  userinfoEndpoint: endpoint.nullable(),
  emailsEndpoint: endpoint.nullable(),
  clientId: z.string().trim().min(1, 'Client ID is required').max(500),
  clientSecret: z.string().min(1).max(2000).nullable(),
  scopes: z
    .string()
    .trim()
    .max(500)
    .regex(/^[\x21\x23-\x5B\x5D-\x7E]+( [\x21\x23-\x5B\x5D-\x7E]+)*$/, 'Scopes are space-separated (RFC 6749 §3.3)'),
  pkce: z.boolean(),
  passLoginHint: z.boolean(),
  claimMapping: z.strictObject({
    username: claim.optional(),
    email: claim.optional(),
    name: claim.optional(),
    picture: claim.optional(),
    subject: claim.optional(),
  }),
  jitCreate: z.boolean(),
  jitState: z.enum(['enabled', 'disabled']),
  emailDomains: z.array(domain).max(50),
  clientIds: z.array(z.string().trim().min(1).max(200)).max(200),
  trustedForMfa: z.boolean(),
  upstreamLogout: z.boolean(),
  keepTokens: z.boolean(),
};

/** What each kind needs: discovery from an issuer, or the OAuth 2.0 endpoints and a profile endpoint. */
function checkKind(value: Partial<Record<keyof typeof fields, unknown>>, ctx: z.RefinementCtx) {
  if (value.kind === 'oidc' && !value.issuer) ctx.addIssue({ code: 'custom', path: ['issuer'], message: 'An OpenID Connect connection needs its issuer' });
  if (value.kind === 'oauth2') {
    for (const field of ['authorizationEndpoint', 'tokenEndpoint', 'userinfoEndpoint'] as const) {
      if (!value[field]) ctx.addIssue({ code: 'custom', path: [field], message: `An OAuth 2.0 connection needs its ${field}` });
    }
  }
}

export const newConnectionSchema = z
  .object({
    ...fields,
    kind: fields.kind.default('oidc'),
    icon: fields.icon.default(null),
    enabled: fields.enabled.default(true),
    issuer: fields.issuer.default(null),
    authorizationEndpoint: fields.authorizationEndpoint.default(null),
    tokenEndpoint: fields.tokenEndpoint.default(null),
    userinfoEndpoint: fields.userinfoEndpoint.default(null),
    emailsEndpoint: fields.emailsEndpoint.default(null),
    clientSecret: fields.clientSecret.default(null),
    scopes: fields.scopes.default('openid profile email'),
    pkce: fields.pkce.default(true),
    passLoginHint: fields.passLoginHint.default(true),
    claimMapping: fields.claimMapping.default({}),
    jitCreate: fields.jitCreate.default(false),
    jitState: fields.jitState.default('enabled'),
    emailDomains: fields.emailDomains.default([]),
    clientIds: fields.clientIds.default([]),
    trustedForMfa: fields.trustedForMfa.default(false),
    upstreamLogout: fields.upstreamLogout.default(false),
    keepTokens: fields.keepTokens.default(false),
  })
  .superRefine(checkKind);

export type NewConnectionInput = z.input<typeof newConnectionSchema>;

export const connectionUpdateSchema = z.object(fields).partial();
export type ConnectionUpdate = z.input<typeof connectionUpdateSchema>;

const target = (connection: ConnectionRecord) => ({ type: 'connection' as const, id: connection.id, label: connection.slug });

export { listConnections };

export async function findConnectionOrThrow(db: Database, slug: string): Promise<ConnectionRecord> {
  const connection = await findConnectionBySlug(db, slug);
  if (!connection) throw new NotFound(`no connection named ${slug}`);
  return connection;
}

export async function createConnection(db: Database, input: NewConnectionInput, by?: AuditBy): Promise<ConnectionRecord> {
  const data = parseInput(newConnectionSchema, input) as ConnectionWrite;
  let connection: ConnectionRecord;
  try {
    connection = await insertConnection(db, data);
  } catch (error) {
    if ((error as { code?: string }).code === 'P2002') throw new Conflict(`a connection named ${data.slug} already exists`, { field: 'slug' });
    throw error;
  }
  await recordAuditBy(db, by, {
    action: 'connection.created',
    target: target(connection),
    details: { slug: connection.slug, kind: connection.kind, enabled: connection.enabled },
  });
  return connection;
}

export async function updateConnection(db: Database, slug: string, input: ConnectionUpdate, by?: AuditBy): Promise<ConnectionRecord> {
  const current = await findConnectionOrThrow(db, slug);
  const changes = parseInput(connectionUpdateSchema, input) as Partial<ConnectionWrite>;
  const merged = { ...current, ...changes };
  // The connection as it would be must still be whole (an oauth2 kind without its endpoints is refused).
  parseInput(newConnectionSchema, { ...merged, clientSecret: null });
  let updated: ConnectionRecord | undefined;
  try {
    updated = await updateConnectionRow(db, current.id, changes);
  } catch (error) {
    if ((error as { code?: string }).code === 'P2002') throw new Conflict(`a connection named ${changes.slug} already exists`, { field: 'slug' });
    throw error;
  }
  if (!updated) throw new NotFound(`no connection named ${slug}`);
  const changed = Object.keys(changes).filter(
    (key) => key === 'clientSecret' || JSON.stringify(changes[key as keyof ConnectionWrite]) !== JSON.stringify(current[key as keyof ConnectionRecord]),
  );
  if (changed.length) await recordAuditBy(db, by, { action: 'connection.updated', target: target(updated), details: { changed } });
  return updated;
}

/** Deletes the connection and every identity linked through it (their accounts stay). */
export async function deleteConnection(db: Database, slug: string, by?: AuditBy): Promise<void> {
  const current = await findConnectionOrThrow(db, slug);
  const identities = await countIdentitiesOfConnection(db, current.id);
  if (!(await deleteConnectionRow(db, current.id))) throw new NotFound(`no connection named ${slug}`);
  await recordAuditBy(db, by, { action: 'connection.deleted', target: target(current), details: { slug: current.slug, identities } });
}

export { listIdentitiesOf };

/**
 * Removes one of a person's upstream identities, by the person (`by: 'self'`) or an admin. The last
 * way into the account cannot go: without a password, a passkey or another identity, nobody could
 * sign in as them again (an admin disables or deletes an account instead).
 */
export async function unlinkIdentity(db: Database, userId: string, identityId: string, who: 'self' | 'admin', by?: AuditBy): Promise<IdentityRecord> {
  const identities = await listIdentitiesOf(db, userId);
  const identity = identities.find((candidate) => candidate.id === identityId);
  if (!identity) throw new NotFound('no such linked identity');
  const [credentials, passkeys] = await Promise.all([findCredentialsById(db, userId), countPasskeys(db, userId)]);
  const otherWays = (credentials?.passwordHash ? 1 : 0) + passkeys + identities.length - 1;
  if (otherWays === 0) throw new Forbidden('This is the last way to sign in to the account: set a password or add a passkey first');
  const removed = await deleteIdentity(db, userId, identityId);
  if (!removed) throw new NotFound('no such linked identity');
  await recordAuditBy(db, by, {
    action: 'identity.unlinked',
    target: { type: 'user', id: userId, label: credentials?.username ?? userId },
    details: { connection: identity.connectionSlug, by: who },
  });
  return removed;
}
