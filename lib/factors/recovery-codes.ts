/**
 * Recovery codes: ten single-use codes a person keeps on paper for when their
 * authenticator app is gone. Each is 16 characters of Crockford's base32
 * (80 random bits), shown once as `abcd-efgh-jkmn-pqrs`.
 *
 * Stored as SHA-256 of the owner's id and the normalised code, not argon2id:
 * a slow hash protects what people choose; 80 random bits cannot be guessed
 * offline at any hashing speed (2^80 SHA-256 is out of reach), and online
 * guesses are throttled like TOTP codes. The owner's id in the hash means one
 * table of hashes cannot be tried against every user at once. A typed code is
 * compared against every unused hash in constant time, and spent with one
 * conditional UPDATE, so two requests with one code cannot both pass.
 */
import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import type { Database } from '../db/database.ts';
import { countUnusedRecoveryCodes, replaceRecoveryCodes, spendRecoveryCode, unusedRecoveryCodes } from './repository.ts';

export const RECOVERY_CODE_COUNT = 10;
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz'; // Crockford's base32: no i, l, o, u
const LENGTH = 16;

/** What was typed, as stored: lowercase, no separators, the letters people confuse with digits read as those digits. */
export function normaliseRecoveryCode(typed: string): string {
  return typed
    .toLowerCase()
    .replace(/[\s-]+/g, '')
    .replace(/o/g, '0')
    .replace(/[il]/g, '1');
}

export const recoveryCodeProblems = {
  recovery_code_missing: 'enter one of your recovery codes',
  recovery_code_format: `a recovery code is ${LENGTH} letters and digits, like abcd-efgh-jkmn-pqrs`,
} as const;
export type RecoveryCodeProblem = keyof typeof recoveryCodeProblems;

const wellFormed = new RegExp(`^[${ALPHABET}]{${LENGTH}}$`);

export function readRecoveryCode(typed: string): { code: string } | { problem: RecoveryCodeProblem } {
  const code = normaliseRecoveryCode(typed);
  if (!code) return { problem: 'recovery_code_missing' };
  return wellFormed.test(code) ? { code } : { problem: 'recovery_code_format' };
}

function hashRecoveryCode(userId: string, normalised: string): string {
  return createHash('sha256').update(`gatehouse recovery code\0${userId}\0${normalised}`).digest('hex');
}

function newRecoveryCode(): string {
  const chars = Array.from({ length: LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
  return chars.match(/.{4}/g)!.join('-');
}

/** Replaces the person's codes with ten new ones; returns them, to be shown once and never again. */
export async function regenerateRecoveryCodes(db: Database, userId: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await replaceRecoveryCodes(
    db,
    userId,
    codes.map((code) => hashRecoveryCode(userId, normaliseRecoveryCode(code))),
  );
  return codes;
}

/** Spends `normalised` if it is one of the person's unused codes: how many are left, or undefined when it is not. */
export async function spendRecovery(db: Database, userId: string, normalised: string, at: Date): Promise<{ remaining: number } | undefined> {
  const typed = Buffer.from(hashRecoveryCode(userId, normalised), 'hex');
  let match: string | undefined;
  // Every unused code is compared, and in constant time: how long this takes says nothing about which matched.
  for (const { id, hash } of await unusedRecoveryCodes(db, userId)) {
    if (timingSafeEqual(typed, Buffer.from(hash, 'hex')) && match === undefined) match = id;
  }
  if (match === undefined || !(await spendRecoveryCode(db, match, at))) return undefined;
  return { remaining: await countUnusedRecoveryCodes(db, userId) };
}

export const recoveryCodesLeft = countUnusedRecoveryCodes;
