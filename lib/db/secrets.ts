/**
 * Server secrets: token signing keys (private JWKs) and named secrets such as
 * cookie keys, shared by every instance through the database. The reads every
 * start makes go through the raw driver: Prisma Client's first query costs
 * ~300 ms (its query compiler loads), which a start that finds everything in
 * place need not pay. Writes (first start only) go through Prisma.
 */
import type { Database } from './database.ts';

export interface SigningKeyRecord {
  kid: string;
  alg: string;
  privateJwk: Record<string, unknown>;
}

/** Active keys, oldest first (the provider signs with the first key that fits an algorithm). */
export async function listActiveSigningKeys(db: Database): Promise<SigningKeyRecord[]> {
  const rows = await db.sql.all<{ kid: string; alg: string; private_jwk: string }>(
    'SELECT kid, alg, private_jwk FROM signing_keys WHERE retired_at IS NULL ORDER BY created_at ASC, kid ASC',
  );
  return rows.map((row) => ({ kid: row.kid, alg: row.alg, privateJwk: JSON.parse(row.private_jwk) as Record<string, unknown> }));
}

/**
 * Stores a key unless one for the same algorithm already exists; returns the
 * keys after the write. Two instances starting at once on an empty database
 * may both generate a key: the unique kid keeps both, and both publish both.
 */
export async function insertSigningKey(db: Database, key: SigningKeyRecord): Promise<void> {
  await db.prisma.signingKey.create({ data: { kid: key.kid, alg: key.alg, privateJwk: JSON.stringify(key.privateJwk) } });
}

/** A named server secret (e.g. cookie keys), created with `generate` the first time it is asked for. */
export async function serverSecret(db: Database, name: string, generate: () => string): Promise<string> {
  const existing = await db.sql.one<{ value: string }>('SELECT value FROM server_secrets WHERE name = ?', [name]);
  if (existing) return existing.value;
  // Two instances racing on an empty database: the second insert loses, and both read the winner.
  await db.prisma.serverSecret.createMany({ data: [{ name, value: generate() }] }).catch(() => undefined);
  const winner = await db.prisma.serverSecret.findUniqueOrThrow({ where: { name } });
  return winner.value;
}
