/**
 * Password hashing: argon2id at OWASP's recommended minimum (m = 19 MiB, t = 2,
 * p = 1; OWASP Password Storage Cheat Sheet): tens of milliseconds of one core per hash.
 */
import { hash, verify } from '@node-rs/argon2';
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { traced } from '../ops/tracing.ts';
import { schemeOf, verifyForeignHash } from './password-schemes.ts';

// algorithm 2 is Algorithm.Argon2id (an ambient const enum that isolated modules cannot read).
const params = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/**
 * Runs at most `slots` tasks at once, the rest in arrival order. A freed slot
 * passes straight to the next waiter, so a new caller can never jump the queue.
 */
export function concurrencyLimit(slots: number) {
  let running = 0;
  const waiting: Array<() => void> = [];
  async function limited<T>(task: () => Promise<T>): Promise<T> {
    if (running < slots) running++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  }
  /** Tasks waiting for a slot and running now (the metrics' argon2id gauges, lib/ops/metrics.ts). */
  limited.load = () => ({ waiting: waiting.length, running });
  return limited;
}

/**
 * Each argon2id hash holds 19 MiB and a core, on libuv's four threads. More
 * hashes at once than cores only adds memory and slows every other request,
 * so they queue here instead.
 */
const argon2 = concurrencyLimit(availableParallelism());

/** argon2id hashes waiting for a slot and running: a queue that grows means sign-ins wait for CPU. */
export const argon2Load = argon2.load;

// Traced (lib/ops/tracing.ts), each hash is a span under the request's, its wait for a slot included.
export function hashPassword(password: string): Promise<string> {
  return traced('argon2id hash', 'internal', {}, () => argon2(() => hash(password, params)));
}

/**
 * Never throws: a malformed stored hash is a failed verification. Besides argon2id (any argon2,
 * whatever its parameters), the hashes an import brought verify too (lib/platform/password-schemes.ts),
 * in the same queue: scrypt and PBKDF2 take libuv's threads as argon2 does.
 */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    const scheme = schemeOf(passwordHash);
    if (scheme === 'argon2' || scheme === undefined) {
      return await traced('argon2id verify', 'internal', {}, () => argon2(() => verify(passwordHash, password)));
    }
    return await traced(`${scheme} verify`, 'internal', {}, () => argon2(() => verifyForeignHash(passwordHash, password)));
  } catch {
    return false;
  }
}

const CURRENT_PREFIX = `$argon2id$v=19$m=${params.memoryCost},t=${params.timeCost},p=${params.parallelism}$`;

/**
 * Whether a stored hash is anything but Gatehouse's own argon2id with today's parameters (an
 * imported bcrypt, scrypt, PBKDF2 or other argon2 hash): after a successful sign-in with it, the
 * password is hashed again (lib/sign-in/authentication.ts).
 */
export function needsRehash(passwordHash: string): boolean {
  return !passwordHash.startsWith(CURRENT_PREFIX);
}

/**
 * argon2id of a random password nobody knows, with the parameters above (the
 * test checks they still match). A constant, so the first unknown username
 * costs one verification like every other, not a hash first.
 */
export const DUMMY_PASSWORD_HASH = '$argon2id$v=19$m=19456,t=2,p=1$kCFp1LikWrcCQtO48zT1mg$9jBRgusjmqAqJZOscQiK7G+lnWD0XfexEbm/9C95Kl8';

/**
 * Spends one verification, in the same queue as real ones, for a username
 * that names no account, so response time does not reveal which usernames
 * are registered.
 */
export async function verifyAgainstDummy(password: string): Promise<false> {
  await verifyPassword(DUMMY_PASSWORD_HASH, password);
  return false;
}

/** A generated password: 24 characters of base64url, 144 bits from the CSPRNG. */
export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}

/** Basic policy for passwords people choose (NIST SP 800-63B §5.1.1: length, not composition). */
export const passwordPolicy = { minLength: 8, maxLength: 256 } as const;
