/**
 * Signed checkpoints of the audit chain: "entry `seq` had hash `hash`", a
 * compact JWS by the provider's current signing key (lib/keys), so that a
 * chain rewritten with fresh hashes (which anyone with write access to the
 * database can compute) no longer matches what was signed. Made
 *
 *   genesis    once, when the chain has no checkpoint yet: seq 0, and how many
 *              entries from before the chain there were (they are not in it);
 *   periodic   by a timer on every instance, when the chain grew since the last
 *              one (instances racing make the same statement twice: harmless);
 *   retention  before a retention cut (lib/audit/retention.ts): the last entry
 *              deleted, so the first one kept still links to something signed.
 *
 * Verification (lib/audit/verify.ts) trusts only the payload, checked with
 * the published keys (the JWKS: next, current and previous ones) and any the
 * auditor kept (`--jwks`): keys retired since cannot be checked from the
 * database alone, which is why an export should be kept with the JWKS of its day.
 */
import { CompactSign, compactVerify, importJWK, type JWK } from 'jose';
import { createPrivateKey, createPublicKey, type KeyObject, randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Database } from '../db/database.ts';
import { listActiveSigningKeys } from '../db/secrets.ts';
import { CHAIN_ID, GENESIS_HASH } from './chain.ts';

/** The JWS `typ` of a checkpoint, so no other JWS the keys sign (an ID token) passes for one. */
export const CHECKPOINT_TYP = 'gatehouse-audit-checkpoint';

export const checkpointReasons = ['genesis', 'periodic', 'retention'] as const;
export type CheckpointReason = (typeof checkpointReasons)[number];

export const checkpointPayloadSchema = z.strictObject({
  chain: z.literal(CHAIN_ID),
  seq: z.number().int().min(0),
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  reason: z.enum(checkpointReasons),
  at: z.iso.datetime(),
  /** genesis: the entries from before the chain (seq null) at that moment; retention only deletes them. */
  unchained: z.number().int().min(0).optional(),
});
export type CheckpointPayload = z.infer<typeof checkpointPayloadSchema>;

export interface StoredCheckpoint {
  id: string;
  at: Date;
  seq: number;
  hash: string;
  reason: string;
  kid: string;
  jws: string;
}

/** Signs and stores a checkpoint with the current signing key; undefined when there is none yet (before the first start). */
export async function signCheckpoint(
  db: Database,
  statement: { seq: number; hash: string; reason: CheckpointReason; unchained?: number },
  now: Date,
): Promise<StoredCheckpoint | undefined> {
  const key = (await listActiveSigningKeys(db)).find((k) => k.state === 'current');
  if (!key) return undefined;
  const payload: CheckpointPayload = { chain: CHAIN_ID, ...statement, at: now.toISOString() };
  const jws = await new CompactSign(new TextEncoder().encode(JSON.stringify(payload)))
    .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: CHECKPOINT_TYP })
    .sign(await importJWK(key.privateJwk as JWK, key.alg));
  const row = { id: randomUUID(), at: now, seq: statement.seq, hash: statement.hash, reason: statement.reason, kid: key.kid, jws };
  await db.prisma.auditCheckpoint.create({ data: row });
  return row;
}

/**
 * What a timer run does: a genesis checkpoint when there is none at all, then a
 * periodic one of the chain's head when it moved past the last checkpoint.
 * Returns the checkpoints made.
 */
export async function checkpointChain(db: Database, now: Date): Promise<StoredCheckpoint[]> {
  const made: StoredCheckpoint[] = [];
  const last = await db.prisma.auditCheckpoint.findFirst({ orderBy: [{ seq: 'desc' }, { at: 'desc' }], select: { seq: true } });
  if (!last) {
    const unchained = await db.prisma.auditEvent.count({ where: { seq: null } });
    const genesis = await signCheckpoint(db, { seq: 0, hash: GENESIS_HASH, reason: 'genesis', unchained }, now);
    if (genesis) made.push(genesis);
  }
  const head = await db.prisma.auditChainHead.findUnique({ where: { id: CHAIN_ID } });
  if (head && head.seq > (last?.seq ?? 0)) {
    const periodic = await signCheckpoint(db, { seq: head.seq, hash: head.hash, reason: 'periodic' }, now);
    if (periodic) made.push(periodic);
  }
  return made;
}

/** How often each instance checks whether the chain grew since its last checkpoint. */
export const CHECKPOINT_INTERVAL_MS = 10 * 60_000;

/** Starts the checkpoint timer: once soon, then every `intervalMs`, never keeping a process alive. Returns its stop. */
export function startAuditCheckpoints(
  db: Database,
  { intervalMs = CHECKPOINT_INTERVAL_MS, log, now }: { intervalMs?: number; log: (line: string) => void; now: () => number },
): () => void {
  const run = () =>
    checkpointChain(db, new Date(now())).then(
      () => undefined,
      (error: unknown) => log(`audit log: the checkpoint failed: ${(error as { code?: string })?.code ?? (error as Error)?.name ?? 'error'}`),
    );
  void run();
  const timer = setInterval(run, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** The public keys a checkpoint may be signed with, by kid: the published ones and any the caller adds (a JWKS kept). */
export async function checkpointKeys(db: Database, kept: readonly JWK[] = []): Promise<Map<string, KeyObject>> {
  const keys = new Map<string, KeyObject>();
  for (const jwk of kept) if (jwk.kid && !('d' in jwk)) keys.set(jwk.kid, createPublicKey({ key: jwk as never, format: 'jwk' }));
  for (const key of await listActiveSigningKeys(db)) keys.set(key.kid, createPublicKey(createPrivateKey({ key: key.privateJwk as never, format: 'jwk' })));
  return keys;
}

export type CheckpointCheck =
  | { status: 'valid'; payload: CheckpointPayload }
  /** Signed by a key that is neither published nor kept: cannot be checked here. */
  | { status: 'unknown_key'; kid: string }
  /** Its signature does not verify with the key it names, or what it says is not a checkpoint. */
  | { status: 'forged'; kid: string };

export async function checkCheckpoint(jws: string, keys: Map<string, KeyObject>): Promise<CheckpointCheck> {
  let kid = '';
  try {
    const header = JSON.parse(Buffer.from(jws.split('.')[0] ?? '', 'base64url').toString('utf8')) as { kid?: unknown };
    kid = typeof header.kid === 'string' ? header.kid : '';
  } catch {
    return { status: 'forged', kid };
  }
  const key = keys.get(kid);
  if (!key) return { status: 'unknown_key', kid };
  try {
    const { payload, protectedHeader } = await compactVerify(jws, key);
    if (protectedHeader.typ !== CHECKPOINT_TYP) return { status: 'forged', kid };
    const parsed = checkpointPayloadSchema.safeParse(JSON.parse(new TextDecoder().decode(payload)));
    return parsed.success ? { status: 'valid', payload: parsed.data } : { status: 'forged', kid };
  } catch {
    return { status: 'forged', kid };
  }
}

/** Every checkpoint, in chain order. */
export async function listCheckpoints(db: Database): Promise<StoredCheckpoint[]> {
  return db.prisma.auditCheckpoint.findMany({ orderBy: [{ seq: 'asc' }, { at: 'asc' }] });
}
