/**
 * Server secrets: token signing keys (private JWKs) and named secrets such as
 * cookie keys, shared by every instance through the database and stored only
 * sealed under the keyring (lib/db/keyring.ts): the database alone signs and
 * decrypts nothing. The reads every start makes go through the raw driver:
 * Prisma Client's first query costs a few hundred ms (its query compiler
 * loads), which a start that finds everything in place need not pay.
 */
import { randomBytes } from 'node:crypto';
import type { ServerSecret, SigningKey } from '../generated/sqlite/client.ts';
import type { Database } from './database.ts';
import { totpSecretContext } from '../factors/repository.ts';
import { connectionSecretContext, upstreamTokensContext } from '../federation/repository.ts';
import { endpointSecretContext } from '../webhooks/outbox.ts';
import { isSealed } from './keyring.ts';
import { epochMs, type RawRow } from './rows.ts';

/** A signing key as the provider uses it: its private JWK opened and parsed. */
export type SigningKeyRecord = Pick<SigningKey, 'kid' | 'alg'> & { privateJwk: Record<string, unknown> };

/** A published key's place in its algorithm's rotation (lib/keys/signing-keys.ts). */
export const signingKeyStates = ['next', 'current', 'previous'] as const;
export type SigningKeyState = (typeof signingKeyStates)[number];

/** Associated data of each sealed value: a ciphertext only opens in the row it was written for. */
export const signingKeyContext = (kid: string) => `signing_keys:${kid}`;
const serverSecretContext = (name: string) => `server_secrets:${name}`;

const stateRank: Record<string, number> = { current: 0, next: 1, previous: 2 };

/**
 * Every published key (next, current, previous), the signing ones first:
 * oidc-provider signs with the first key of an algorithm in its JWKS and
 * publishes them all. Should an algorithm briefly have two current keys (a
 * rotation half done, two instances creating the first key at once), the one
 * that became current last signs, on every instance alike.
 */
export async function listActiveSigningKeys(db: Database): Promise<(SigningKeyRecord & { state: SigningKeyState })[]> {
  const rows = await db.sql.all<RawRow<SigningKey, 'kid' | 'alg' | 'state' | 'activatesAt' | 'privateJwk'>>(
    'SELECT kid, alg, state, activates_at, private_jwk FROM signing_keys',
  );
  rows.sort((a, b) => stateRank[a.state] - stateRank[b.state] || epochMs(b.activates_at) - epochMs(a.activates_at) || (a.kid < b.kid ? -1 : 1));
  return rows.map((row) => ({
    kid: row.kid,
    alg: row.alg,
    state: row.state as SigningKeyState,
    privateJwk: JSON.parse(db.keyring.open(row.private_jwk, signingKeyContext(row.kid))) as Record<string, unknown>,
  }));
}

/**
 * Stores a key, current from now unless told otherwise. Two instances starting
 * at once on an empty database may both generate one: the unique kid keeps
 * both, both publish both, and the later one signs.
 */
export async function insertSigningKey(db: Database, key: SigningKeyRecord & { state?: SigningKeyState; activatesAt?: Date; createdAt?: Date }): Promise<void> {
  const privateJwk = db.keyring.seal(JSON.stringify(key.privateJwk), signingKeyContext(key.kid));
  const createdAt = key.createdAt ?? new Date();
  await db.prisma.signingKey.create({
    data: { kid: key.kid, alg: key.alg, privateJwk, state: key.state ?? 'current', createdAt, activatesAt: key.activatesAt ?? createdAt },
  });
}

/**
 * Stores a key in `state` unless its algorithm has one in that state already;
 * false when it had (another instance's start or rotation check made it
 * first). Two instances starting at once on an empty database then create one
 * current key per algorithm, not two whose extra one stays published until
 * its retirement. SQLite runs writes one at a time, and the insert reads as it
 * writes (one statement); on PostgreSQL two such statements could both see no
 * key, so they take turns on a transaction-scoped advisory lock (per schema),
 * and the second one's check sees the first one's row.
 */
export async function insertSigningKeyIfNone(
  db: Database,
  key: SigningKeyRecord & { state: 'current' | 'next'; activatesAt: Date; createdAt: Date },
): Promise<boolean> {
  const privateJwk = db.keyring.seal(JSON.stringify(key.privateJwk), signingKeyContext(key.kid));
  if (db.sql.kind === 'sqlite') {
    // Prisma's own text form of a DateTime on SQLite.
    const at = (date: Date) => date.toISOString().replace('Z', '+00:00');
    const inserted = await db.sql.run(
      `INSERT INTO signing_keys (kid, alg, private_jwk, state, created_at, activates_at)
       SELECT ?, ?, ?, ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM signing_keys WHERE alg = ? AND state = ?)`,
      [key.kid, key.alg, privateJwk, key.state, at(key.createdAt), at(key.activatesAt), key.alg, key.state],
    );
    return inserted > 0;
  }
  return db.prisma.$transaction(async (tx) => {
    await tx.$executeRawUnsafe("SELECT pg_advisory_xact_lock(hashtext('gatehouse.signing_keys:' || current_schema()))");
    if ((await tx.signingKey.count({ where: { alg: key.alg, state: key.state } })) > 0) return false;
    await tx.signingKey.create({
      data: { kid: key.kid, alg: key.alg, privateJwk, state: key.state, createdAt: key.createdAt, activatesAt: key.activatesAt },
    });
    return true;
  });
}

/**
 * A named server secret of 256 random bits (an HMAC key), read once per database and kept for the
 * process; one shared by every instance. A failed read is tried again next time.
 */
export function randomServerSecret(name: string): (db: Database) => Promise<string> {
  const kept = new WeakMap<Database, Promise<string>>();
  return (db) => {
    let key = kept.get(db);
    if (!key) {
      key = serverSecret(db, name, () => randomBytes(32).toString('base64url')).catch((error: unknown) => {
        kept.delete(db);
        throw error;
      });
      kept.set(db, key);
    }
    return key;
  };
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
 * Every sealed column, read through the raw driver (`id`, `value`) and written
 * back through Prisma with a conditional update: only when the row still holds
 * the value read, so instances starting together never overwrite each other's
 * work and a second pass finds nothing to do.
 */
const sealedColumns = [
  {
    table: 'signing_keys',
    select: 'SELECT kid AS id, private_jwk AS value FROM signing_keys',
    context: signingKeyContext,
    update: (db: Database, kid: string, from: string, to: string) =>
      db.prisma.signingKey.updateMany({ where: { kid, privateJwk: from }, data: { privateJwk: to } }),
  },
  {
    table: 'server_secrets',
    select: 'SELECT name AS id, value FROM server_secrets',
    context: serverSecretContext,
    update: (db: Database, name: string, from: string, to: string) => db.prisma.serverSecret.updateMany({ where: { name, value: from }, data: { value: to } }),
  },
  {
    table: 'user_factors',
    select: 'SELECT id, secret AS value FROM user_factors',
    context: totpSecretContext,
    update: (db: Database, id: string, from: string, to: string) => db.prisma.userFactor.updateMany({ where: { id, secret: from }, data: { secret: to } }),
  },
  {
    table: 'connections',
    select: 'SELECT id, client_secret AS value FROM connections WHERE client_secret IS NOT NULL',
    context: connectionSecretContext,
    update: (db: Database, id: string, from: string, to: string) =>
      db.prisma.connection.updateMany({ where: { id, clientSecret: from }, data: { clientSecret: to } }),
  },
  {
    table: 'federated_identities',
    select: 'SELECT id, upstream_tokens AS value FROM federated_identities WHERE upstream_tokens IS NOT NULL',
    context: upstreamTokensContext,
    update: (db: Database, id: string, from: string, to: string) =>
      db.prisma.federatedIdentity.updateMany({ where: { id, upstreamTokens: from }, data: { upstreamTokens: to } }),
  },
  {
    table: 'webhook_endpoints',
    select: 'SELECT id, secret AS value FROM webhook_endpoints',
    context: endpointSecretContext,
    update: (db: Database, id: string, from: string, to: string) => db.prisma.webhookEndpoint.updateMany({ where: { id, secret: from }, data: { secret: to } }),
  },
] as const;

/** The tables `resealSecrets` covers: every column sealed under the keyring. */
export const sealedTables = sealedColumns.map((column) => column.table);

/**
 * Brings every stored secret under the current key, in place: values written
 * in clear before secrets were encrypted, and values sealed under an older
 * key after SECRETS_KEY gained a new first key, so the old key can be dropped
 * afterwards. Runs at every start; a start that finds everything current
 * reads three small tables and writes nothing. Each table's rows are
 * re-sealed in one transaction, so a table is never left half under each key
 * by a start that fails. A value no configured key opens stops it, naming the
 * table and row (never the value). Returns how many rows each table had re-sealed.
 */
export async function resealSecrets(db: Database): Promise<Record<string, number>> {
  const { keyring } = db;
  const counts: Record<string, number> = {};
  for (const column of sealedColumns) {
    const stale = (await db.sql.all<{ id: string; value: string }>(column.select)).filter((row) => !keyring.isCurrent(row.value));
    counts[column.table] = 0;
    if (stale.length === 0) continue;
    const updates = stale.map((row) => {
      const context = column.context(row.id);
      let plaintext: string;
      try {
        plaintext = isSealed(row.value) ? keyring.open(row.value, context) : row.value;
      } catch (error) {
        throw new Error(`cannot re-encrypt ${column.table}: ${(error as Error).message}; add the key it was encrypted under to SECRETS_KEY, after the first`);
      }
      return column.update(db, row.id, row.value, keyring.seal(plaintext, context));
    });
    const results = await db.prisma.$transaction(updates);
    counts[column.table] = results.reduce((sum, { count }) => sum + count, 0);
  }
  return counts;
}
