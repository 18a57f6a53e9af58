/**
 * Second factors and recovery codes (prisma/schema/models.prisma `UserFactor`,
 * `Passkey`, `RecoveryCode`): one aggregate, a person's second step. The TOTP secret is
 * sealed under the keyring with the row's id as associated data and opened
 * only by `findTotpSecret`, for the use case that checks a code; every other
 * read returns what a page may show. Recovery codes arrive here already hashed.
 *
 * The writes that decide whether a code counts are single conditional
 * UPDATEs, so two requests racing with one code cannot both win.
 */
import { randomUUID } from 'node:crypto';
import type { Database } from '../db/database.ts';

export type FactorKind = 'totp';

/** What /account shows of a factor: never its secret. */
export interface FactorSummary {
  id: string;
  kind: FactorKind;
  createdAt: Date;
  /** Null while enrolment waits for its first code. */
  confirmedAt: Date | null;
}

/** What checking a TOTP code needs: the opened secret (base32) and the last step accepted. */
export interface TotpSecret extends FactorSummary {
  secret: string;
  lastUsedStep: number | null;
}

/** One TOTP factor per person: its id says whose it is (see the model's comment). */
export const totpFactorId = (userId: string) => `totp:${userId}`;

/** Associated data of the sealed secret: it opens only in the row it was written for. */
export const totpSecretContext = (factorId: string) => `user_factors:${factorId}`;

const summaryFields = { id: true, kind: true, createdAt: true, confirmedAt: true } as const;

const asSummary = (row: { id: string; kind: string; createdAt: Date; confirmedAt: Date | null }): FactorSummary => ({ ...row, kind: row.kind as FactorKind });

export async function findTotpFactor(db: Database, userId: string): Promise<FactorSummary | undefined> {
  const row = await db.prisma.userFactor.findUnique({ where: { id: totpFactorId(userId) }, select: summaryFields });
  return row ? asSummary(row) : undefined;
}

/** The person's TOTP factor with its secret opened: for verifying a code only. */
export async function findTotpSecret(db: Database, userId: string): Promise<TotpSecret | undefined> {
  const row = await db.prisma.userFactor.findUnique({ where: { id: totpFactorId(userId) }, select: { ...summaryFields, secret: true, lastUsedStep: true } });
  if (!row) return undefined;
  return { ...asSummary(row), secret: db.keyring.open(row.secret, totpSecretContext(row.id)), lastUsedStep: row.lastUsedStep };
}

/**
 * Stores a pending TOTP factor with `secret` (base32), unless the person
 * already has one (pending or confirmed): then nothing changes. Returns
 * whether this call created it.
 */
export async function insertPendingTotp(db: Database, userId: string, secret: string): Promise<boolean> {
  const id = totpFactorId(userId);
  try {
    await db.prisma.userFactor.create({ data: { id, userId, kind: 'totp', secret: db.keyring.seal(secret, totpSecretContext(id)) } });
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === 'P2002') return false; // a concurrent or earlier start: keep that one
    throw error;
  }
}

/** Confirms a pending factor with the step of its first code; false when it was not pending (already confirmed, or gone). */
export async function confirmTotp(db: Database, userId: string, step: number, at: Date): Promise<boolean> {
  const { count } = await db.prisma.userFactor.updateMany({
    where: { id: totpFactorId(userId), confirmedAt: null },
    data: { confirmedAt: at, lastUsedStep: step },
  });
  return count === 1;
}

/**
 * Accepts a code of time step `step` on a confirmed factor, once: only when no
 * code of this step or a later one was accepted before (RFC 6238 §5.2).
 */
export async function acceptTotpStep(db: Database, userId: string, step: number): Promise<boolean> {
  const { count } = await db.prisma.userFactor.updateMany({
    where: { id: totpFactorId(userId), confirmedAt: { not: null }, OR: [{ lastUsedStep: null }, { lastUsedStep: { lt: step } }] },
    data: { lastUsedStep: step },
  });
  return count === 1;
}

/**
 * Removes the TOTP factor; whether there was one. Recovery codes stand in for
 * any second factor, so they go with it only when no passkey is left (one
 * transaction: a passkey registered meanwhile keeps them).
 */
export async function deleteTotp(db: Database, userId: string): Promise<boolean> {
  return db.prisma.$transaction(async (tx) => {
    const { count } = await tx.userFactor.deleteMany({ where: { id: totpFactorId(userId) } });
    if ((await tx.passkey.count({ where: { userId } })) === 0) await tx.recoveryCode.deleteMany({ where: { userId } });
    return count > 0;
  });
}

/** Replaces every recovery code of the person (used or not) with these hashes. */
export async function replaceRecoveryCodes(db: Database, userId: string, hashes: string[]): Promise<void> {
  await db.prisma.$transaction([
    db.prisma.recoveryCode.deleteMany({ where: { userId } }),
    db.prisma.recoveryCode.createMany({ data: hashes.map((hash) => ({ id: randomUUID(), userId, hash })) }),
  ]);
}

/** The unused codes' ids and hashes, for comparing a typed code against each. */
export async function unusedRecoveryCodes(db: Database, userId: string): Promise<Array<{ id: string; hash: string }>> {
  return db.prisma.recoveryCode.findMany({ where: { userId, usedAt: null }, select: { id: true, hash: true } });
}

export async function countUnusedRecoveryCodes(db: Database, userId: string): Promise<number> {
  return db.prisma.recoveryCode.count({ where: { userId, usedAt: null } });
}

/** Marks a code used; false when another request spent it first. */
export async function spendRecoveryCode(db: Database, id: string, at: Date): Promise<boolean> {
  const { count } = await db.prisma.recoveryCode.updateMany({ where: { id, usedAt: null }, data: { usedAt: at } });
  return count === 1;
}

/**
 * Whether the account signs in with a second step: a confirmed TOTP factor, or
 * a passkey. The one answer for the sign-in, step-up (lib/oidc/step-up.ts) and /account.
 */
export async function hasSecondFactor(db: Database, userId: string): Promise<boolean> {
  const [totp, passkeys] = await Promise.all([
    db.prisma.userFactor.count({ where: { userId, confirmedAt: { not: null } } }),
    db.prisma.passkey.count({ where: { userId } }),
  ]);
  return totp + passkeys > 0;
}

/** What /account and admins see of a passkey: never its key. */
export interface PasskeySummary {
  id: string;
  name: string;
  /** "multiDevice": synced (a password manager, a phone's keychain); "singleDevice": bound to one authenticator. */
  deviceType: 'singleDevice' | 'multiDevice';
  backedUp: boolean;
  createdAt: Date;
  lastUsedAt: Date | null;
}

/** What checking an assertion needs. */
export interface PasskeyCredential {
  id: string;
  userId: string;
  /** COSE public key, base64url. */
  publicKey: string;
  counter: number;
  transports: string[];
}

const passkeySummaryFields = { id: true, name: true, deviceType: true, backedUp: true, createdAt: true, lastUsedAt: true } as const;

export async function listPasskeys(db: Database, userId: string): Promise<PasskeySummary[]> {
  const rows = await db.prisma.passkey.findMany({ where: { userId }, select: passkeySummaryFields, orderBy: { createdAt: 'asc' } });
  return rows.map((row) => ({ ...row, deviceType: row.deviceType === 'multiDevice' ? 'multiDevice' : 'singleDevice' }));
}

export async function countPasskeys(db: Database, userId: string): Promise<number> {
  return db.prisma.passkey.count({ where: { userId } });
}

const transportsOf = (json: string): string[] => {
  const parsed: unknown = JSON.parse(json);
  return Array.isArray(parsed) ? parsed.filter((t): t is string => typeof t === 'string') : [];
};

/** The person's credential ids and transports: a sign-in's allowCredentials, a registration's excludeCredentials. */
export async function passkeyDescriptors(db: Database, userId: string): Promise<Array<{ id: string; transports: string[] }>> {
  const rows = await db.prisma.passkey.findMany({ where: { userId }, select: { id: true, transports: true }, orderBy: { createdAt: 'asc' } });
  return rows.map((row) => ({ id: row.id, transports: transportsOf(row.transports) }));
}

export async function findPasskeyCredential(db: Database, credentialId: string): Promise<PasskeyCredential | undefined> {
  const row = await db.prisma.passkey.findUnique({
    where: { id: credentialId },
    select: { id: true, userId: true, publicKey: true, counter: true, transports: true },
  });
  return row ? { ...row, counter: Number(row.counter), transports: transportsOf(row.transports) } : undefined;
}

export interface NewPasskey {
  id: string;
  userId: string;
  name: string;
  publicKey: string;
  counter: number;
  transports: string[];
  deviceType: 'singleDevice' | 'multiDevice';
  backedUp: boolean;
}

/** Stores a registered passkey; false when a credential with its id exists already (registered twice). */
export async function insertPasskey(db: Database, passkey: NewPasskey): Promise<boolean> {
  try {
    await db.prisma.passkey.create({ data: { ...passkey, counter: BigInt(passkey.counter), transports: JSON.stringify(passkey.transports) } });
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === 'P2002') return false;
    throw error;
  }
}

/**
 * Records a use of a passkey: its new signature counter and when. Conditional
 * on the counter read before checking the assertion, so of two requests racing
 * with counters of one authenticator only one wins.
 */
export async function recordPasskeyUse(db: Database, id: string, counter: { before: number; after: number }, at: Date): Promise<boolean> {
  const { count } = await db.prisma.passkey.updateMany({
    where: { id, counter: BigInt(counter.before) },
    data: { counter: BigInt(counter.after), lastUsedAt: at },
  });
  return count === 1;
}

/**
 * Removes one of the person's passkeys (its id and theirs must match); the
 * name it had, or undefined when there was none. Recovery codes go with the
 * last factor, as in deleteTotp.
 */
export async function deletePasskey(db: Database, userId: string, id: string): Promise<string | undefined> {
  return db.prisma.$transaction(async (tx) => {
    const passkey = await tx.passkey.findFirst({ where: { id, userId }, select: { name: true } });
    if (!passkey) return undefined;
    await tx.passkey.delete({ where: { id } });
    const left = (await tx.passkey.count({ where: { userId } })) + (await tx.userFactor.count({ where: { userId, confirmedAt: { not: null } } }));
    if (left === 0) await tx.recoveryCode.deleteMany({ where: { userId } });
    return passkey.name;
  });
}

/** Removes every second factor and recovery code of the person (an admin's reset); what went. */
export async function deleteAllFactors(db: Database, userId: string): Promise<{ totp: boolean; passkeys: number; recoveryCodes: number }> {
  const [totp, passkeys, unused] = await db.prisma.$transaction([
    db.prisma.userFactor.deleteMany({ where: { userId } }),
    db.prisma.passkey.deleteMany({ where: { userId } }),
    db.prisma.recoveryCode.count({ where: { userId, usedAt: null } }),
    db.prisma.recoveryCode.deleteMany({ where: { userId } }),
    // The devices trusted to skip a second step that is gone now: set up again, it is asked again everywhere.
    db.prisma.trustedDevice.deleteMany({ where: { userId } }),
  ]);
  return { totp: totp.count > 0, passkeys: passkeys.count, recoveryCodes: unused };
}
