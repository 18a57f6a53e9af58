/**
 * Initial access tokens (RFC 7591 §1.2, §3): what an admin issues so that a client may register itself at
 * /oauth/register, with its limits: how many clients, until when, which redirect URI hosts, grant types and
 * scopes, and whether what registers with it waits for an admin's approval. The token is 256 random bits,
 * shown once; only its SHA-256 is stored (`initial_access_tokens`), so a copy of the table registers nothing.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { z } from 'zod';
import { recordAuditBy, type AuditBy } from '../audit/log.ts';
import type { Database } from '../db/database.ts';
import { recordById } from '../db/rows.ts';
import { NotFound, parseInput } from '../platform/errors.ts';
import { SUPPORTED_SCOPES, ADMIN_SCOPE, INTROSPECT_SCOPE } from '../oidc/scopes.ts';

/** The grant types a self-registered client may be allowed: the ones Gatehouse serves. */
export const REGISTRABLE_GRANT_TYPES = ['authorization_code', 'refresh_token', 'client_credentials'] as const;
/** Never to a self-registered client: the admin API's and the resource servers' scopes (lib/oidc/client-policy.ts). */
export const REGISTRABLE_SCOPES = SUPPORTED_SCOPES.filter((s) => s !== ADMIN_SCOPE && s !== INTROSPECT_SCOPE);

const hostSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$|^\[[0-9a-f:.]+\]$/, 'a host name such as app.example.com');

export const initialAccessTokenSchema = z.object({
  /** The admin's name for it: who it is for. */
  name: z.string().trim().min(1, 'Name is required').max(128),
  maxClients: z.coerce.number().int().min(1).max(10_000).default(1),
  /** Days until it expires. */
  expiresInDays: z.coerce.number().int().min(1).max(365).default(7),
  redirectHosts: z.array(hostSchema).max(50).default([]),
  grantTypes: z.array(z.enum(REGISTRABLE_GRANT_TYPES)).min(1, 'Choose at least one grant type').default(['authorization_code', 'refresh_token']),
  scopes: z
    .array(z.enum(REGISTRABLE_SCOPES as [string, ...string[]]))
    .min(1, 'Choose at least one scope')
    .default(['openid', 'profile', 'email', 'offline_access']),
  requireApproval: z.boolean().default(false),
});
export type InitialAccessTokenInput = z.input<typeof initialAccessTokenSchema>;

/** A token as admins see it: never the token itself. */
export interface InitialAccessTokenRecord {
  id: string;
  name: string;
  maxClients: number;
  clientsRegistered: number;
  redirectHosts: string[];
  grantTypes: string[];
  scopes: string[];
  requireApproval: boolean;
  expiresAt: Date;
  revokedAt: Date | null;
  createdAt: Date;
}

type Row = Awaited<ReturnType<Database['prisma']['initialAccessToken']['findFirstOrThrow']>>;

function toRecord(row: Row): InitialAccessTokenRecord {
  return {
    id: row.id,
    name: row.name,
    maxClients: row.maxClients,
    clientsRegistered: row.clientsRegistered,
    redirectHosts: JSON.parse(row.redirectHosts) as string[],
    grantTypes: JSON.parse(row.grantTypes) as string[],
    scopes: JSON.parse(row.scopes) as string[],
    requireApproval: row.requireApproval,
    expiresAt: row.expiresAt,
    revokedAt: row.revokedAt,
    createdAt: row.createdAt,
  };
}

export const hashInitialAccessToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Where a token stands at `now`: only a live one registers a client. */
export function tokenState(token: InitialAccessTokenRecord, now: number): 'live' | 'revoked' | 'expired' | 'used_up' {
  if (token.revokedAt) return 'revoked';
  if (token.expiresAt.getTime() <= now) return 'expired';
  return token.clientsRegistered >= token.maxClients ? 'used_up' : 'live';
}

/** Whether it can still register a client at `now`. */
export const isUsable = (token: InitialAccessTokenRecord, now: number) => tokenState(token, now) === 'live';

/** Issues a token: its record, and the token itself, returned this once. */
export async function issueInitialAccessToken(
  db: Database,
  input: InitialAccessTokenInput,
  { now, by }: { now: number; by?: AuditBy },
): Promise<{ token: string; record: InitialAccessTokenRecord }> {
  const t = parseInput(initialAccessTokenSchema, input);
  const token = randomBytes(32).toString('base64url');
  const row = await db.prisma.initialAccessToken.create({
    data: {
      id: randomUUID(),
      tokenHash: hashInitialAccessToken(token),
      name: t.name,
      maxClients: t.maxClients,
      redirectHosts: JSON.stringify([...new Set(t.redirectHosts)]),
      grantTypes: JSON.stringify([...new Set(t.grantTypes)]),
      scopes: JSON.stringify([...new Set(t.scopes)]),
      requireApproval: t.requireApproval,
      expiresAt: new Date(now + t.expiresInDays * 86_400_000),
    },
  });
  const record = toRecord(row);
  await recordAuditBy(db, by, {
    action: 'registration_token.issued',
    target: { type: 'registration_token', id: record.id, label: record.name },
    details: {
      maxClients: record.maxClients,
      expiresAt: record.expiresAt.toISOString(),
      redirectHosts: record.redirectHosts,
      grantTypes: record.grantTypes,
      scopes: record.scopes,
      requireApproval: record.requireApproval,
    },
  });
  return { token, record };
}

export async function listInitialAccessTokens(db: Database): Promise<InitialAccessTokenRecord[]> {
  const rows = await db.prisma.initialAccessToken.findMany({ orderBy: { createdAt: 'desc' } });
  return rows.map(toRecord);
}

export function findInitialAccessToken(db: Database, id: string): Promise<InitialAccessTokenRecord | undefined> {
  return recordById((args) => db.prisma.initialAccessToken.findUnique(args), id, toRecord);
}

/** The token a registration presents, whatever its state (the caller decides with `isUsable`). */
export async function initialAccessTokenByValue(db: Database, token: string): Promise<InitialAccessTokenRecord | undefined> {
  const row = await db.prisma.initialAccessToken.findUnique({ where: { tokenHash: hashInitialAccessToken(token) } });
  return row ? toRecord(row) : undefined;
}

/**
 * Takes one of the token's registrations, if one is left and it is still live: one conditional UPDATE,
 * so two registrations racing for the last one cannot both get it.
 */
export async function takeRegistrationSlot(db: Database, id: string, now: number): Promise<boolean> {
  const token = await db.prisma.initialAccessToken.findUnique({ where: { id }, select: { maxClients: true } });
  if (!token) return false;
  const { count } = await db.prisma.initialAccessToken.updateMany({
    where: { id, revokedAt: null, expiresAt: { gt: new Date(now) }, clientsRegistered: { lt: token.maxClients } },
    data: { clientsRegistered: { increment: 1 } },
  });
  return count === 1;
}

/** Revokes a token: nothing registers with it any more; the clients it registered stay. */
export async function revokeInitialAccessToken(db: Database, id: string, { now, by }: { now: number; by?: AuditBy }): Promise<InitialAccessTokenRecord> {
  const { count } = await db.prisma.initialAccessToken.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: new Date(now) } });
  const record = await findInitialAccessToken(db, id);
  if (!record) throw new NotFound(`no initial access token ${id}`);
  if (count === 1) {
    await recordAuditBy(db, by, { action: 'registration_token.revoked', target: { type: 'registration_token', id, label: record.name }, details: {} });
  }
  return record;
}
