/**
 * The password hash an import line brings, turned into what `users.password_hash` stores
 * (lib/platform/password-schemes.ts says which strings those are), and its replacement by
 * Gatehouse's argon2id at the person's first sign-in. Nothing here verifies a hash: an import
 * stores it as it came; a sign-in verifies it.
 *
 * Accepted, as `password_hash` alone:
 * - PHC strings: `$argon2id$…`, `$argon2i$…`, `$argon2d$…`, `$scrypt$ln=…,r=…,p=…$salt$hash`,
 *   `$pbkdf2-sha1|sha256|sha512$i=N$salt$hash` (and passlib's `$pbkdf2-sha256$N$salt$hash`);
 * - bcrypt: `$2a$`, `$2b$`, `$2y$`;
 * - Django's `pbkdf2_sha256$N$salt$hash` (and `pbkdf2_sha1`), its salt text as it is.
 * Or as separate fields, as Keycloak exports them: `password_hash` and `password_salt` in base64,
 * `password_iterations`, `password_algorithm` (`pbkdf2` = SHA-1, `pbkdf2-sha256`, `pbkdf2-sha512`),
 * or Keycloak's own `credentials` array (its `secretData` and `credentialData` JSON strings,
 * PBKDF2 or argon2).
 */
import type { Database } from '../db/database.ts';
import { hashPassword } from '../platform/passwords.ts';
import {
  formatPbkdf2,
  formatScrypt,
  fromB64,
  PBKDF2_DIGESTS,
  type Pbkdf2Digest,
  phcB64,
  SCHEME_LIMITS,
  schemeOf,
  scryptMemory,
} from '../platform/password-schemes.ts';

/** The password fields of one import line, as read (CSV cells are strings, JSON may carry numbers). */
export interface ImportedPassword {
  password_hash?: string;
  password_salt?: string;
  password_iterations?: string | number;
  password_algorithm?: string;
  credentials?: unknown;
}

/** The stored string, or why the line is refused (never the hash itself: it would land in the report). */
export type HashOutcome = { hash: string } | { hash: null } | { problem: string };

const KEYCLOAK_DIGESTS: Record<string, Pbkdf2Digest> = { pbkdf2: 'sha1', 'pbkdf2-sha1': 'sha1', 'pbkdf2-sha256': 'sha256', 'pbkdf2-sha512': 'sha512' };

function pbkdf2Hash(digest: Pbkdf2Digest, iterations: unknown, salt: Buffer | undefined, hash: Buffer | undefined): HashOutcome {
  const rounds = typeof iterations === 'number' ? iterations : Number(iterations);
  if (!Number.isInteger(rounds) || rounds < 1) return { problem: 'password_iterations: a whole number of at least 1 is needed' };
  if (rounds > SCHEME_LIMITS.pbkdf2Iterations) return { problem: `password_iterations: at most ${SCHEME_LIMITS.pbkdf2Iterations}` };
  if (!salt) return { problem: 'password_salt: not base64' };
  if (!hash?.length) return { problem: 'password_hash: not base64' };
  return { hash: formatPbkdf2({ digest, iterations: rounds, salt, hash }) };
}

/** Keycloak's `credentials` array (a realm export's user): its one password credential. */
function keycloakCredential(credentials: unknown): HashOutcome {
  if (!Array.isArray(credentials)) return { problem: 'credentials: an array of Keycloak credentials is needed' };
  const password = credentials.find((c) => (c as { type?: unknown })?.type === 'password') as { secretData?: unknown; credentialData?: unknown } | undefined;
  if (!password) return { hash: null };
  let secret: { value?: unknown; salt?: unknown };
  let data: { hashIterations?: unknown; algorithm?: unknown; additionalParameters?: Record<string, unknown> };
  try {
    secret = typeof password.secretData === 'string' ? JSON.parse(password.secretData) : (password.secretData as typeof secret);
    data = typeof password.credentialData === 'string' ? JSON.parse(password.credentialData) : (password.credentialData as typeof data);
  } catch {
    return { problem: 'credentials: secretData and credentialData must be JSON' };
  }
  const value = typeof secret?.value === 'string' ? fromB64(secret.value) : undefined;
  const salt = typeof secret?.salt === 'string' ? fromB64(secret.salt) : undefined;
  const algorithm = String(data?.algorithm ?? '');
  if (Object.hasOwn(KEYCLOAK_DIGESTS, algorithm)) return pbkdf2Hash(KEYCLOAK_DIGESTS[algorithm], data.hashIterations, salt, value);
  if (algorithm === 'argon2') {
    // Keycloak keeps each parameter as a one-element list of strings.
    const param = (name: string, fallback: string) => {
      const raw = data.additionalParameters?.[name];
      return String(Array.isArray(raw) ? raw[0] : (raw ?? fallback));
    };
    const type = param('type', 'id');
    const version = param('version', '1.3') === '1.3' ? 19 : 16;
    const [m, t, p] = [param('memory', '7168'), String(data.hashIterations ?? '5'), param('parallelism', '1')];
    if (!['id', 'i', 'd'].includes(type) || ![m, t, p].every((n) => /^\d{1,7}$/.test(n)) || !salt || !value?.length) {
      return { problem: 'credentials: an argon2 credential with parameters Gatehouse cannot read' };
    }
    return { hash: `$argon2${type}$v=${version}$m=${m},t=${t},p=${p}$${phcB64(salt)}$${phcB64(value)}` };
  }
  return {
    problem: `credentials: Keycloak's ${algorithm || 'unnamed'} algorithm is not one Gatehouse verifies (pbkdf2, pbkdf2-sha256, pbkdf2-sha512, argon2)`,
  };
}

/** A hash string on its own: PHC, bcrypt, passlib's or Django's. */
function hashString(text: string): HashOutcome {
  // passlib: `$pbkdf2-sha256$29000$salt$hash`, in its base64 with `.` for `+`.
  const passlib = /^\$pbkdf2(?:-(sha256|sha512))?\$(\d+)\$([^$]*)\$([^$]+)$/.exec(text);
  if (passlib) return pbkdf2Hash((passlib[1] ?? 'sha1') as Pbkdf2Digest, passlib[2], fromB64(passlib[3]), fromB64(passlib[4]));
  // Django: `pbkdf2_sha256$260000$salt$hash`, the salt a text used as its UTF-8 bytes.
  const django = /^pbkdf2_(sha1|sha256|sha512)\$(\d+)\$([^$]+)\$([A-Za-z0-9+/=]+)$/.exec(text);
  if (django) return pbkdf2Hash(django[1] as Pbkdf2Digest, django[2], Buffer.from(django[3], 'utf8'), fromB64(django[4]));
  // passlib's scrypt is PHC's with its base64: read once, written back in the standard alphabet.
  const scrypt = /^\$scrypt\$ln=(\d+),r=(\d+),p=(\d+)\$([^$]*)\$([^$]+)$/.exec(text);
  if (scrypt) {
    const [ln, r, p] = scrypt.slice(1, 4).map(Number);
    const salt = fromB64(scrypt[4]);
    const hash = fromB64(scrypt[5]);
    if (!salt || !hash?.length || !ln || !r || !p) return { problem: 'password_hash: a scrypt hash Gatehouse cannot read' };
    if (ln > 30 || scryptMemory({ ln, r }) > SCHEME_LIMITS.scryptMemory) return { problem: 'password_hash: scrypt parameters above 256 MiB' };
    return { hash: formatScrypt({ ln, r, p, salt, hash }) };
  }
  const scheme = schemeOf(text);
  if (scheme) return { hash: text };
  if (/^\$2[aby]\$/.test(text)) return { problem: `password_hash: a bcrypt hash of cost above ${SCHEME_LIMITS.bcryptCost} or malformed` };
  return { problem: 'password_hash: not a format Gatehouse verifies (PHC string, bcrypt, PBKDF2, scrypt; see docs/import-export.md)' };
}

/** The stored hash an import line's password fields make; `{ hash: null }` when the line has none. */
export function importedPasswordHash(fields: ImportedPassword): HashOutcome {
  if (fields.credentials !== undefined && fields.credentials !== null) {
    if (fields.password_hash) return { problem: 'give credentials or password_hash, not both' };
    return keycloakCredential(fields.credentials);
  }
  const text = fields.password_hash?.trim();
  const separate = [fields.password_salt, fields.password_iterations, fields.password_algorithm].some((v) => v !== undefined && v !== '');
  if (!text) return separate ? { problem: 'password_hash: missing, while its salt, iterations or algorithm are given' } : { hash: null };
  if (!separate) return hashString(text);
  const algorithm = (fields.password_algorithm ?? '').trim().toLowerCase();
  if (!Object.hasOwn(KEYCLOAK_DIGESTS, algorithm)) {
    return { problem: `password_algorithm: one of ${Object.keys(KEYCLOAK_DIGESTS).join(', ')} with a separate salt and iterations` };
  }
  return pbkdf2Hash(KEYCLOAK_DIGESTS[algorithm], fields.password_iterations, fromB64(fields.password_salt ?? ''), fromB64(text));
}

/** PBKDF2 digests, for the docs and the help text. */
export const PBKDF2_NAMES = Object.keys(PBKDF2_DIGESTS);

/**
 * The password was just verified against an imported hash: store it as argon2id, only if the
 * stored hash is still that one (a password changed meanwhile wins). Not a password change: the
 * person's trusted devices and sessions stay, and nothing is audited.
 */
export async function rehashImportedPassword(db: Database, id: string, previousHash: string, password: string): Promise<boolean> {
  const passwordHash = await hashPassword(password);
  const [{ count }] = await db.prisma.$transaction([
    db.prisma.user.updateMany({ where: { id, passwordHash: previousHash }, data: { passwordHash } }),
    db.prisma.userImport.updateMany({ where: { userId: id, passwordImported: true }, data: { passwordImported: false } }),
  ]);
  return count === 1;
}
