/**
 * The keys that encrypt what the database must not hold in clear: server
 * secrets (cookie keys, the portal's secrets) and private signing keys. They
 * live outside the database, so a copy of it (a backup, a replica, a leaked
 * dump) signs nothing and decrypts nothing:
 * `SECRETS_KEY` (the first of its keys encrypts, all decrypt), or on SQLite
 * only a `<file>.key` beside the database (docs/operations.md, *Secrets and
 * backups*, tells an operator how to back it up apart and rotate it). PostgreSQL serves several instances, which
 * must share one key: there it has to be configured.
 *
 * Sealed values are AES-256-GCM: `v1.<key id>.<iv>.<ciphertext+tag>`, the key
 * id being a digest of the key (never the key). The caller names what a value
 * is (its table and name) as associated data, so a ciphertext moved to another
 * row does not decrypt there.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { chmodSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { decodeSecretsKey } from '../config/env.ts';

export interface Keyring {
  /** Encrypts under the current key; `context` must be given again to open it. */
  seal(plaintext: string, context: string): string;
  /** Decrypts a sealed value; throws a clear error when no configured key opens it. */
  open(sealed: string, context: string): string;
  /** Whether a stored value is sealed under the current key (false for clear text and older keys). */
  isCurrent(stored: string): boolean;
}

const PREFIX = 'v1';

export const isSealed = (stored: string) => stored.startsWith(`${PREFIX}.`) && stored.split('.').length === 4;

/** A key's id, as sealed values name it (`gatehouse keys secrets-id` prints it): a digest, never the key. */
export const keyId = (key: Buffer) => createHash('sha256').update('gatehouse secrets key id\0').update(key).digest('hex').slice(0, 16);

export function keyringOf(keys: Buffer[]): Keyring {
  if (keys.length === 0) throw new Error('a keyring needs at least one key');
  const byId = new Map(keys.map((key) => [keyId(key), key] as const));
  const [current] = keys;
  const currentId = keyId(current);
  return {
    seal(plaintext, context) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', current, iv).setAAD(Buffer.from(context));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
      return [PREFIX, currentId, iv.toString('base64url'), body.toString('base64url')].join('.');
    },
    open(sealed, context) {
      if (!isSealed(sealed)) throw new Error(`${context} is not encrypted`);
      const [, id, iv, data] = sealed.split('.');
      const key = byId.get(id);
      if (!key) throw new Error(`${context} is encrypted under key ${id}, which is not among SECRETS_KEY's keys (or the key file's)`);
      const body = Buffer.from(data, 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url')).setAAD(Buffer.from(context));
      decipher.setAuthTag(body.subarray(body.length - 16));
      try {
        return Buffer.concat([decipher.update(body.subarray(0, body.length - 16)), decipher.final()]).toString('utf8');
      } catch {
        throw new Error(`${context} does not decrypt under key ${id}: the value was altered or belongs elsewhere`);
      }
    },
    isCurrent: (stored) => isSealed(stored) && stored.split('.')[1] === currentId,
  };
}

/** Where the embedded default keeps its key: beside the SQLite file. */
export const keyFilePath = (sqliteFile: string) => `${sqliteFile}.key`;

/**
 * The keyring for a database: SECRETS_KEY's keys, then (SQLite) the key file's
 * when it exists, so data sealed under the file's key still opens after an
 * operator moves to SECRETS_KEY. Without SECRETS_KEY, SQLite creates the file:
 * a start checks first (lib/db/start-checks.ts) that the database holds no
 * value sealed under another key, so a lost key file is never replaced.
 */
export function keyringFor(databaseUrl: string, configured: Buffer[]): Keyring {
  if (!databaseUrl.startsWith('file:')) {
    if (configured.length === 0) {
      throw new Error(
        'SECRETS_KEY is required with PostgreSQL: every instance must encrypt and decrypt with the same key (generate one with `openssl rand -base64 32`)',
      );
    }
    return keyringOf(configured);
  }
  const file = keyFilePath(databaseUrl.slice('file:'.length));
  const fromFile = readKeyFile(file) ?? (configured.length ? undefined : createKeyFile(file));
  return keyringOf(fromFile ? [...configured, fromFile] : configured);
}

/** The key in a key file; undefined when there is no such file. */
export function readKeyFile(file: string): Buffer | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const key = decodeSecretsKey(text);
  if (!key) throw new Error(`${file} does not hold a 32-byte key in base64 or hex`);
  return key;
}

/**
 * Written to a temporary file, then linked into place: link() fails when the
 * file exists, so two processes starting at once on one database end up with
 * the same key, and neither ever reads a half-written file.
 */
function createKeyFile(file: string): Buffer {
  mkdirSync(dirname(file), { recursive: true });
  const key = randomBytes(32);
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(temporary, `${key.toString('base64url')}\n`, { mode: 0o600 });
  try {
    chmodSync(temporary, 0o600); // whatever the umask
    linkSync(temporary, file);
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return readKeyFile(file)!;
  } finally {
    rmSync(temporary, { force: true });
  }
}
