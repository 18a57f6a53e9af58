/**
 * The bearer tokens of SCIM provisioning clients (RFC 7644 §2: the protocol leaves authentication to the
 * service provider; OAuth bearer tokens are what Okta, Entra ID and the others send). An admin issues one per
 * client, named for it; the token is 256 random bits, shown once; only its SHA-256 is stored
 * (`scim_tokens`), so a copy of the table provisions nothing. Every change a token makes is recorded in the
 * audit log as made by `scim:<name>` (`scimActor`).
 */
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { recordAuditBy, type AuditBy } from '../audit/log.ts';
import type { Database } from '../db/database.ts';
import { recordById } from '../db/rows.ts';
import { NotFound, parseInput } from '../platform/errors.ts';

export const scimTokenSchema = z.object({
  /** The admin's name for the provisioning client: who the audit log says made each change. */
  name: z.string().trim().min(1, 'Name is required').max(100),
});
export type ScimTokenInput = z.input<typeof scimTokenSchema>;

/** A token as admins see it: never the token itself. */
export interface ScimTokenRecord {
  id: string;
  name: string;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  createdAt: Date;
}

const select = { id: true, name: true, lastUsedAt: true, revokedAt: true, createdAt: true } as const;

export const hashScimToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** How a provisioning client is named as an actor in the audit log. */
export const SCIM_ACTOR_PREFIX = 'scim:';

/**
 * Who a token's changes are made by. It acts with the user manager's rights (lib/admin-roles/roles.ts): it
 * creates and changes people without an admin role, never an admin's or an owner's account, whose address or
 * password it could otherwise change and take over.
 */
export function scimActor(token: Pick<ScimTokenRecord, 'name'>): NonNullable<AuditBy['actor']> {
  return { id: null, username: `${SCIM_ACTOR_PREFIX}${token.name}`, role: 'user_manager' };
}

/** Issues a token: its record, and the token itself, returned this once. */
export async function issueScimToken(db: Database, input: ScimTokenInput, by?: AuditBy): Promise<{ token: string; record: ScimTokenRecord }> {
  const { name } = parseInput(scimTokenSchema, input);
  const token = randomBytes(32).toString('base64url');
  const record = await db.prisma.scimToken.create({ data: { id: randomUUID(), tokenHash: hashScimToken(token), name }, select });
  await recordAuditBy(db, by, { action: 'scim_token.issued', target: { type: 'scim_token', id: record.id, label: record.name }, details: {} });
  return { token, record };
}

export function listScimTokens(db: Database): Promise<ScimTokenRecord[]> {
  return db.prisma.scimToken.findMany({ select, orderBy: [{ createdAt: 'desc' }, { id: 'asc' }] });
}

export function findScimToken(db: Database, id: string): Promise<ScimTokenRecord | undefined> {
  return recordById(
    (args) => db.prisma.scimToken.findUnique({ ...args, select }),
    id,
    (row) => row,
  );
}

/** Revokes a token: the client's next request is refused; what it provisioned stays. */
export async function revokeScimToken(db: Database, id: string, { now, by }: { now: number; by?: AuditBy }): Promise<ScimTokenRecord> {
  const { count } = await db.prisma.scimToken.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: new Date(now) } });
  const record = await findScimToken(db, id);
  if (!record) throw new NotFound(`no SCIM token ${id}`);
  if (count === 1) await recordAuditBy(db, by, { action: 'scim_token.revoked', target: { type: 'scim_token', id, label: record.name }, details: {} });
  return record;
}

/**
 * The live token a request presents, or undefined. Looked up by its hash (an index, so no timing of the
 * comparison tells anything about the stored hashes), compared once more in constant time. Its last use is
 * written at most once a minute, so a busy client does not write a row per request.
 */
export async function authenticateScimToken(db: Database, token: string, now: number): Promise<ScimTokenRecord | undefined> {
  if (!token || token.length > 200) return undefined;
  const hash = hashScimToken(token);
  const row = await db.prisma.scimToken.findUnique({ where: { tokenHash: hash }, select: { ...select, tokenHash: true } });
  if (!row || row.revokedAt || !timingSafeEqual(Buffer.from(row.tokenHash), Buffer.from(hash))) return undefined;
  const { tokenHash: _, ...record } = row;
  if (!record.lastUsedAt || now - record.lastUsedAt.getTime() > 60_000) {
    await db.prisma.scimToken.updateMany({ where: { id: record.id }, data: { lastUsedAt: new Date(now) } });
  }
  return record;
}
