/**
 * Connections to upstream identity providers and the identities people hold there
 * (prisma/schema/models.prisma `Connection`, `FederatedIdentity`): the only code that queries
 * their tables. The client secret is sealed under the keyring with the row's id as associated
 * data; every read returns it only as `hasClientSecret`, except `findConnectionSecret`, which the
 * token request alone calls. Lists are JSON text, parsed here.
 */
import { randomUUID } from 'node:crypto';
import type { Connection, FederatedIdentity } from '../generated/sqlite/client.ts';
import type { Database } from '../db/database.ts';

/** Associated data of the sealed client secret: it opens only in the row it was written for. */
export const connectionSecretContext = (id: string) => `connections:${id}`;

/** Associated data of a kept identity's upstream tokens. */
export const upstreamTokensContext = (id: string) => `federated_identities:${id}`;

export type ConnectionKind = 'oidc' | 'oauth2';
export type JitState = 'enabled' | 'disabled';

/** Which upstream claim (or GitHub-shaped profile field) fills each of the person's fields. */
export interface ClaimMapping {
  username?: string;
  email?: string;
  name?: string;
  picture?: string;
  /** OAuth 2.0 kind: the profile field that identifies the person (GitHub: `id`). */
  subject?: string;
}

/** The JSON-text columns, as the lists and objects they hold. */
interface ConnectionLists {
  claimMapping: ClaimMapping;
  emailDomains: string[];
  clientIds: string[];
}

/** A connection as the CLI, the portal, the API and the sign-in see it: never the secret. */
export type ConnectionRecord = Omit<Connection, 'clientSecret' | 'kind' | 'jitState' | keyof ConnectionLists> &
  ConnectionLists & { kind: ConnectionKind; jitState: JitState; hasClientSecret: boolean };

/** What creating or updating stores: the record's fields and the secret in clear (sealed here), `undefined` to keep it. */
export type ConnectionWrite = Omit<ConnectionRecord, 'id' | 'createdAt' | 'updatedAt' | 'hasClientSecret'> & { clientSecret?: string | null };

const parseJson = <T>(text: string, fallback: T): T => {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
};

function toRecord(row: Connection): ConnectionRecord {
  const { clientSecret, claimMapping, emailDomains, clientIds, ...rest } = row;
  return {
    ...rest,
    kind: row.kind === 'oauth2' ? 'oauth2' : 'oidc',
    jitState: row.jitState === 'disabled' ? 'disabled' : 'enabled',
    claimMapping: parseJson<ClaimMapping>(claimMapping, {}),
    emailDomains: parseJson<string[]>(emailDomains, []),
    clientIds: parseJson<string[]>(clientIds, []),
    hasClientSecret: clientSecret !== null,
  };
}

function toColumns(db: Database, id: string, input: Partial<ConnectionWrite>) {
  const { claimMapping, emailDomains, clientIds, clientSecret, ...rest } = input;
  return {
    ...rest,
    ...(claimMapping === undefined ? {} : { claimMapping: JSON.stringify(claimMapping) }),
    ...(emailDomains === undefined ? {} : { emailDomains: JSON.stringify(emailDomains) }),
    ...(clientIds === undefined ? {} : { clientIds: JSON.stringify(clientIds) }),
    ...(clientSecret === undefined ? {} : { clientSecret: clientSecret === null ? null : db.keyring.seal(clientSecret, connectionSecretContext(id)) }),
  };
}

/** Throws Prisma's P2002 when the slug is taken. */
export async function insertConnection(db: Database, input: ConnectionWrite): Promise<ConnectionRecord> {
  const id = randomUUID();
  const data = toColumns(db, id, input) as Omit<Connection, 'id' | 'createdAt' | 'updatedAt'>;
  return toRecord(await db.prisma.connection.create({ data: { ...data, id } }));
}

export async function updateConnection(db: Database, id: string, input: Partial<ConnectionWrite>): Promise<ConnectionRecord | undefined> {
  const { count } = await db.prisma.connection.updateMany({ where: { id }, data: toColumns(db, id, input) });
  return count ? findConnection(db, id) : undefined;
}

export async function countIdentitiesOfConnection(db: Database, connectionId: string): Promise<number> {
  return db.prisma.federatedIdentity.count({ where: { connectionId } });
}

export async function deleteConnection(db: Database, id: string): Promise<boolean> {
  const { count } = await db.prisma.connection.deleteMany({ where: { id } });
  return count === 1;
}

export async function findConnection(db: Database, id: string): Promise<ConnectionRecord | undefined> {
  const row = await db.prisma.connection.findUnique({ where: { id } });
  return row ? toRecord(row) : undefined;
}

export async function findConnectionBySlug(db: Database, slug: string): Promise<ConnectionRecord | undefined> {
  const row = await db.prisma.connection.findUnique({ where: { slug } });
  return row ? toRecord(row) : undefined;
}

export async function listConnections(db: Database): Promise<ConnectionRecord[]> {
  return (await db.prisma.connection.findMany({ orderBy: { displayName: 'asc' } })).map(toRecord);
}

/** Whether any connection exists: with none, the sign-in page asks nothing more of the database. */
export async function countEnabledConnections(db: Database): Promise<number> {
  return db.prisma.connection.count({ where: { enabled: true } });
}

/** The client secret in clear, for the token request only. */
export async function findConnectionSecret(db: Database, id: string): Promise<string | undefined> {
  const row = await db.prisma.connection.findUnique({ where: { id }, select: { clientSecret: true } });
  return row?.clientSecret ? db.keyring.open(row.clientSecret, connectionSecretContext(id)) : undefined;
}

/** A linked identity as /account and the portal show it: never the kept tokens. */
export type IdentityRecord = Omit<FederatedIdentity, 'upstreamTokens'> & { connectionName: string; connectionSlug: string };

const identityFields = {
  id: true,
  userId: true,
  connectionId: true,
  issuer: true,
  subject: true,
  email: true,
  createdAt: true,
  lastUsedAt: true,
  connection: { select: { displayName: true, slug: true } },
} as const;

type IdentityRow = Omit<FederatedIdentity, 'upstreamTokens'> & { connection: { displayName: string; slug: string } };

const toIdentity = ({ connection, ...row }: IdentityRow): IdentityRecord => ({
  ...row,
  connectionName: connection.displayName,
  connectionSlug: connection.slug,
});

/** The identity an upstream's issuer and subject name: the key, never the email. */
export async function findIdentity(db: Database, issuer: string, subject: string): Promise<IdentityRecord | undefined> {
  const row = await db.prisma.federatedIdentity.findUnique({ where: { issuer_subject: { issuer, subject } }, select: identityFields });
  return row ? toIdentity(row) : undefined;
}

export async function listIdentitiesOf(db: Database, userId: string): Promise<IdentityRecord[]> {
  return (await db.prisma.federatedIdentity.findMany({ where: { userId }, select: identityFields, orderBy: { createdAt: 'asc' } })).map(toIdentity);
}

/** Throws Prisma's P2002 when the issuer and subject are linked already (to anyone). */
export async function insertIdentity(
  db: Database,
  identity: { userId: string; connectionId: string; issuer: string; subject: string; email: string | null; at: Date },
): Promise<IdentityRecord> {
  const { at, ...rest } = identity;
  const row = await db.prisma.federatedIdentity.create({ data: { id: randomUUID(), ...rest, createdAt: at, lastUsedAt: at }, select: identityFields });
  return toIdentity(row);
}

/** A sign-in with the identity: when, the upstream's address now, and its tokens when the connection keeps them (sealed). */
export async function touchIdentity(db: Database, id: string, at: Date, email: string | null, tokens?: Record<string, unknown>): Promise<void> {
  const upstreamTokens = tokens ? db.keyring.seal(JSON.stringify(tokens), upstreamTokensContext(id)) : null;
  await db.prisma.federatedIdentity.updateMany({ where: { id }, data: { lastUsedAt: at, email, upstreamTokens } });
}

export async function deleteIdentity(db: Database, userId: string, id: string): Promise<IdentityRecord | undefined> {
  const row = await db.prisma.federatedIdentity.findFirst({ where: { id, userId }, select: identityFields });
  if (!row) return undefined;
  const { count } = await db.prisma.federatedIdentity.deleteMany({ where: { id, userId } });
  return count ? toIdentity(row) : undefined;
}
