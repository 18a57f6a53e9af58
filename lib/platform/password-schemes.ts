/**
 * Password hashes made elsewhere and brought in by an import (lib/users/import.ts): bcrypt,
 * argon2i/d/id with any parameters, scrypt and PBKDF2-SHA1/256/512. Each is checked with a kept
 * implementation, never one written here: bcryptjs for bcrypt, @node-rs/argon2 for argon2,
 * node:crypto's scrypt and pbkdf2 for those two. A person's first sign-in with one replaces it
 * with Gatehouse's own argon2id (lib/sign-in/authentication.ts, `needsRehash`).
 *
 * Stored in `users.password_hash` as one string each, in the PHC string format where the scheme has
 * one (https://github.com/P-H-C/phc-string-format): bcrypt's own `$2b$…`, argon2's `$argon2id$v=19$…`,
 * and for the two node:crypto schemes `$scrypt$ln=15,r=8,p=1$<salt>$<hash>` and
 * `$pbkdf2-sha256$i=27500$<salt>$<hash>` (salt and hash in base64 without padding). lib/users/import-hashes.ts
 * turns the exported forms (Keycloak's, Django's, passlib's) into these.
 */
import { pbkdf2, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import bcrypt from 'bcryptjs';

const pbkdf2Async = promisify(pbkdf2);
const scryptAsync = promisify(scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;

/**
 * What one verification may cost at most, checked at import and again at sign-in, so a file with
 * absurd parameters cannot make each sign-in attempt a denial of service: PBKDF2 up to ten million
 * iterations, scrypt up to 256 MiB, bcrypt cost up to 16.
 */
export const SCHEME_LIMITS = { pbkdf2Iterations: 10_000_000, scryptMemory: 256 * 1024 * 1024, bcryptCost: 16 } as const;

export const PBKDF2_DIGESTS = { sha1: 'sha1', sha256: 'sha256', sha512: 'sha512' } as const;
export type Pbkdf2Digest = keyof typeof PBKDF2_DIGESTS;

export interface Pbkdf2Hash {
  scheme: 'pbkdf2';
  digest: Pbkdf2Digest;
  iterations: number;
  salt: Buffer;
  hash: Buffer;
}
export interface ScryptHash {
  scheme: 'scrypt';
  /** log2 of N, the cost. */
  ln: number;
  r: number;
  p: number;
  salt: Buffer;
  hash: Buffer;
}

/** PHC's base64: the standard alphabet without padding (passlib's `.` for `+` read too). */
export const phcB64 = (bytes: Buffer) => bytes.toString('base64').replace(/=+$/, '');
export const fromB64 = (text: string): Buffer | undefined =>
  /^[A-Za-z0-9+/.]*={0,2}$/.test(text) ? Buffer.from(text.replace(/\./g, '+'), 'base64') : undefined;

/** `2^ln * r * 128` bytes, what scrypt holds; above the limit the hash is refused. */
export const scryptMemory = ({ ln, r }: Pick<ScryptHash, 'ln' | 'r'>) => 2 ** ln * r * 128;

export function formatPbkdf2({ digest, iterations, salt, hash }: Omit<Pbkdf2Hash, 'scheme'>): string {
  return `$pbkdf2-${digest}$i=${iterations}$${phcB64(salt)}$${phcB64(hash)}`;
}

export function formatScrypt({ ln, r, p, salt, hash }: Omit<ScryptHash, 'scheme'>): string {
  return `$scrypt$ln=${ln},r=${r},p=${p}$${phcB64(salt)}$${phcB64(hash)}`;
}

const int = (text: string | undefined) => (text && /^\d{1,9}$/.test(text) ? Number(text) : undefined);

/** A stored PBKDF2 or scrypt string, read back; undefined for anything else or out of limits. */
export function parseNodeHash(stored: string): Pbkdf2Hash | ScryptHash | undefined {
  const pbkdf = /^\$pbkdf2-(sha1|sha256|sha512)\$i=(\d+)\$([^$]*)\$([^$]+)$/.exec(stored);
  if (pbkdf) {
    const [, digest, rounds, salt, hash] = pbkdf;
    const iterations = int(rounds);
    const saltBytes = fromB64(salt);
    const hashBytes = fromB64(hash);
    if (!iterations || iterations > SCHEME_LIMITS.pbkdf2Iterations || !saltBytes || !hashBytes?.length) return undefined;
    return { scheme: 'pbkdf2', digest: digest as Pbkdf2Digest, iterations, salt: saltBytes, hash: hashBytes };
  }
  const scryptMatch = /^\$scrypt\$ln=(\d+),r=(\d+),p=(\d+)\$([^$]*)\$([^$]+)$/.exec(stored);
  if (scryptMatch) {
    const [ln, r, p] = scryptMatch.slice(1, 4).map(int);
    const salt = fromB64(scryptMatch[4]);
    const hash = fromB64(scryptMatch[5]);
    if (!ln || ln > 30 || !r || !p || !salt || !hash?.length || scryptMemory({ ln, r }) > SCHEME_LIMITS.scryptMemory) return undefined;
    return { scheme: 'scrypt', ln, r, p, salt, hash };
  }
  return undefined;
}

const BCRYPT = /^\$2[aby]\$(\d\d)\$[./A-Za-z0-9]{53}$/;
const ARGON2 = /^\$argon2(id|i|d)\$/;

/** Which scheme a stored hash is, or undefined when Gatehouse cannot verify it. */
export function schemeOf(stored: string): 'argon2' | 'bcrypt' | 'pbkdf2' | 'scrypt' | undefined {
  if (ARGON2.test(stored)) return 'argon2';
  const cost = BCRYPT.exec(stored);
  if (cost) return Number(cost[1]) <= SCHEME_LIMITS.bcryptCost ? 'bcrypt' : undefined;
  return parseNodeHash(stored)?.scheme;
}

/** bcrypt, scrypt or PBKDF2 (argon2 is verify()'s own); false for a malformed or out-of-limit hash. */
export async function verifyForeignHash(stored: string, password: string): Promise<boolean> {
  if (schemeOf(stored) === 'bcrypt') return bcrypt.compare(password, stored);
  const parsed = parseNodeHash(stored);
  if (!parsed) return false;
  const derived =
    parsed.scheme === 'pbkdf2'
      ? await pbkdf2Async(password, parsed.salt, parsed.iterations, parsed.hash.length, PBKDF2_DIGESTS[parsed.digest])
      : await scryptAsync(password, parsed.salt, parsed.hash.length, {
          N: 2 ** parsed.ln,
          r: parsed.r,
          p: parsed.p,
          maxmem: scryptMemory(parsed) + 1024 * 1024,
        });
  return timingSafeEqual(derived, parsed.hash);
}
