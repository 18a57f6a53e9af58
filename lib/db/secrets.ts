/**
 * Server secrets: token signing keys (private JWKs) and named secrets such as
 * cookie keys, shared by every instance through the database and stored only
 * sealed under the keyring (lib/db/keyring.ts): the database alone signs and
 * decrypts nothing. The reads every start makes go through the raw driver:
 * Prisma Client's first query costs a few hundred ms (its query compiler
 * loads), which a start that finds everything in place need not pay.
 */
import type { ServerSecret, SigningKey } from '../generated/sqlite/client.ts';
import type { Database } from './database.ts';
import { isSealed } from './keyring.ts';
import type { RawRow } from './rows.ts';

/** A signing key as the provider uses it: its private JWK opened and parsed. */
export type SigningKeyRecord = Pick<SigningKey, 'kid' | 'alg'> & { privateJwk: Record<string, unknown> };

/** Associated data of each sealed value: a ciphertext only opens in the row it was written for. */
const signingKeyContext = (kid: string) => `signing_keys:${kid}`;
const serverSecretContext = (name: string) => `server_secrets:${name}`;

/** Active keys, oldest first (the provider signs with the first key that fits an algorithm). */
export async function listActiveSigningKeys(db: Database): Promise<SigningKeyRecord[]> {
  const rows = await db.sql.all<RawRow<SigningKey, 'kid' | 'alg' | 'privateJwk'>>(
    'SELECT kid, alg, private_jwk FROM signing_keys WHERE retired_at IS NULL ORDER BY created_at ASC, kid ASC',
  );
  return rows.map((row) => ({
    kid: row.kid,
    alg: row.alg,
    privateJwk: JSON.parse(db.keyring.open(row.private_jwk, signingKeyContext(row.kid))) as Record<string, unknown>,
  }));
}

/**
 * Stores a key. Two instances starting at once on an empty database may both
 * generate one: the unique kid keeps both, and both publish both.
 */
export async function insertSigningKey(db: Database, key: SigningKeyRecord): Promise<void> {
  const privateJwk = db.keyring.seal(JSON.stringify(key.privateJwk), signingKeyContext(key.kid));
  await db.prisma.signingKey.create({ data: { kid: key.kid, alg: key.alg, privateJwk } });
}

/** A named server secret (e.g. cookie keys), created with `generate` the first time it is asked for. */
export async function serverSecret(db: Database, name: string, generate: () => string): Promise<string> {
  const context = serverSecretContext(name);
  const existing = await db.sql.one<RawRow<ServerSecret, 'value'>>('SELECT value FROM server_secrets WHERE name = ?', [name]);
  if (existing) return db.keyring.open(existing.value, context);
  // Two instances racing on an empty database: the second insert loses, and both read the winner.
  await db.prisma.serverSecret.createMany({ data: [{ name, value: db.keyring.seal(generate(), context) }] }).catch(() => undefined);
  const winner = await db.prisma.serverSecret.findUniqueOrThrow({ where: { name } });
  return db.keyring.open(winner.value, context);
}

/**
 * Brings every stored secret under the current key, in place: values written
 * in clear before secrets were encrypted, and values sealed under an older
 * key after SECRETS_KEY gained a new first key. Runs at every start; a start
 * that finds everything current reads two small tables and writes nothing.
 * Each update is conditional on the value it read, so instances starting
 * together never overwrite each other's work. Returns how many were sealed.
 */
export async function resealSecrets(db: Database): Promise<number> {
  const { keyring } = db;
  let sealed = 0;
  const reseal = (stored: string, context: string) => keyring.seal(isSealed(stored) ? keyring.open(stored, context) : stored, context);
  for (const row of await db.sql.all<RawRow<SigningKey, 'kid' | 'privateJwk'>>('SELECT kid, private_jwk FROM signing_keys')) {
    if (keyring.isCurrent(row.private_jwk)) continue;
    const value = reseal(row.private_jwk, signingKeyContext(row.kid));
    sealed += await db.sql.run('UPDATE signing_keys SET private_jwk = ? WHERE kid = ? AND private_jwk = ?', [value, row.kid, row.private_jwk]);
  }
  for (const row of await db.sql.all<RawRow<ServerSecret, 'name' | 'value'>>('SELECT name, value FROM server_secrets')) {
    if (keyring.isCurrent(row.value)) continue;
    const value = reseal(row.value, serverSecretContext(row.name));
    sealed += await db.sql.run('UPDATE server_secrets SET value = ? WHERE name = ? AND value = ?', [value, row.name, row.value]);
  }
  return sealed;
}
