/**
 * Where the provider's adapter (lib/oidc/adapter.ts) reads and writes each
 * artifact: Redis for the short-lived models when REDIS_URL is set
 * (REDIS_MODELS, lib/db/artifacts.ts), the table for the rest, and, on
 * PostgreSQL, the process's read cache (lib/db/read-cache.ts) in front of the
 * grants and sessions that every token, introspection and userinfo request
 * reads again. Ids are hashed and payloads stripped by lib/db/artifacts.ts
 * whatever the store.
 *
 * The cache is read only where the caller says a stale entry is harmless
 * (`cached`, which lib/oidc/adapter.ts gives for introspection and userinfo): a
 * change made on another instance reaches this one's cache by a notification
 * that can arrive after the person's next request (a sign-in that bounces between
 * instances behind a load balancer), so the writes' own flows read the table.
 *
 * While Redis is lost (lib/db/redis-health.ts), access tokens (client-credentials
 * ones too) are written to the table instead, where deployments without Redis keep
 * them anyway, and a token not found in Redis is looked for there: a refresh or a
 * client-credentials grant, which needs nothing else from Redis, keeps working
 * through an outage. Deleting one deletes it from both, and fails while Redis is
 * lost: a revoked token must not come back with Redis. Codes and interactions
 * have no such fallback: one written to the table would not be found by an
 * instance that still reaches Redis, so their requests fail, naming Redis.
 */
import {
  type ArtifactPayload,
  type ArtifactRow,
  consumeArtifact,
  destroyArtifact,
  destroyArtifactsByGrantId,
  destroySessionReturningUid,
  findArtifactByUid,
  findArtifactByUserCode,
  findArtifactRow,
  findArtifactRowByUid,
  findTokenArtifact,
  fromRedis,
  grantIdOfArtifact,
  jtiOf,
  REDIS_MODELS,
  storedId,
  storedPayload,
  TOKEN_MODELS,
  toPayload,
  upsertArtifact,
} from './artifacts.ts';
import type { Database } from './database.ts';
import { isRedisUnavailable } from './redis-health.ts';

const isTokenModel = (model: string): model is (typeof TOKEN_MODELS)[number] => (TOKEN_MODELS as readonly string[]).includes(model);
const redisFor = (db: Database, model: string) => (REDIS_MODELS.has(model) ? db.redisArtifacts : undefined);
const expiryOf = (row: ArtifactRow) => (row.expires_at === null ? null : Number(row.expires_at));

/** Saves an artifact; a grant or session saved here is forgotten by this process's cache once written. */
export async function saveArtifact(db: Database, model: string, id: string, payload: ArtifactPayload, expiresAt: number | null): Promise<void> {
  const redis = redisFor(db, model);
  if (redis) {
    // Reached through its grant (revocation, a person's or a client's grants ending), or through its client when it has none.
    const owner = payload.grantId ? (['grant', payload.grantId] as const) : payload.clientId ? (['client', payload.clientId] as const) : undefined;
    try {
      return await redis.upsert(model, storedId(model, id), JSON.stringify(storedPayload(model, payload)), owner && [...owner], expiresAt);
    } catch (error) {
      if (!(isTokenModel(model) && isRedisUnavailable(error))) throw error;
      // Redis is lost: the token goes to the table (the top of this file).
    }
  }
  await upsertArtifact(db.sql, model, id, payload, expiresAt);
  if (model === 'Grant') db.cache.forget(`Grant:${id}`);
  if (model === 'Session' && payload.uid) db.cache.forget(`Session:${payload.uid}`);
}

/** How a read may use the process's read cache (lib/db/read-cache.ts); without it, the table is read. */
export interface CachedRead {
  cached?: boolean;
  /**
   * A cached value the caller can tell is older than what it holds (a session that
   * does not yet name the grant of the token being checked): refused, the row is
   * read again and replaces the entry.
   */
  accept?: (payload: ArtifactPayload) => boolean;
}

/** `load` through the cache when `read.cached`, read again when the cached value is not accepted. */
async function throughCache(
  db: Database,
  key: string,
  load: () => Promise<ArtifactRow | undefined>,
  now: number,
  { cached = false, accept }: CachedRead,
): Promise<ArtifactPayload | undefined> {
  if (!cached) return toPayload(await load(), now);
  const payload = toPayload(await db.cache.read(key, load, expiryOf), now);
  if (!payload || !accept || accept(payload)) return payload;
  db.cache.forget(key);
  return toPayload(await db.cache.read(key, load, expiryOf), now);
}

/** An artifact by id, or undefined when missing or expired. */
export async function loadArtifact(db: Database, model: string, id: string, now: number, read: CachedRead = {}): Promise<ArtifactPayload | undefined> {
  const redis = redisFor(db, model);
  if (redis && !isTokenModel(model)) return toPayload(fromRedis(await redis.find(model, storedId(model, id))), now, jtiOf(model, id));
  if (redis && redis.available()) {
    const held = await redis.find(model, storedId(model, id)).catch((error: unknown) => {
      if (isRedisUnavailable(error)) return undefined;
      throw error;
    });
    const payload = toPayload(fromRedis(held), now, jtiOf(model, id));
    if (payload) return payload;
    // Not in Redis: it may have been issued while Redis was lost (the top of this file).
  }
  // Introspection and revocation look a value up as all three token kinds at once: one query (lib/db/artifacts.ts).
  if (isTokenModel(model)) return findTokenArtifact(db.sql, model, id, now);
  if (model === 'Grant') return throughCache(db, `Grant:${id}`, () => findArtifactRow(db.sql, model, id), now, read);
  return toPayload(await findArtifactRow(db.sql, model, id), now, jtiOf(model, id));
}

/** Only sessions are found by uid (a token's session binding: on every introspection and userinfo). */
export async function loadArtifactByUid(db: Database, model: string, uid: string, now: number, read: CachedRead = {}): Promise<ArtifactPayload | undefined> {
  if (redisFor(db, model)) throw new Error(`${model} is held in Redis, which does not index it by uid`);
  if (model === 'Session') return throughCache(db, `Session:${uid}`, () => findArtifactRowByUid(db.sql, model, uid), now, read);
  return findArtifactByUid(db.sql, model, uid, now);
}

export async function loadArtifactByUserCode(db: Database, model: string, userCode: string, now: number): Promise<ArtifactPayload | undefined> {
  if (redisFor(db, model)) throw new Error(`${model} is held in Redis, which does not index it by user code`);
  return findArtifactByUserCode(db.sql, model, userCode, now);
}

/**
 * Marks an artifact consumed; false when it already was (or is gone). Atomic
 * in either store: a conditional UPDATE, or a Lua script in Redis.
 */
export async function consumeArtifactOnce(db: Database, model: string, id: string, now: number): Promise<boolean> {
  const redis = redisFor(db, model);
  if (redis) return redis.consume(model, storedId(model, id), now);
  return consumeArtifact(db.sql, model, id, now);
}

export async function grantIdOf(db: Database, model: string, id: string): Promise<string | undefined> {
  const redis = redisFor(db, model);
  if (!redis) return grantIdOfArtifact(db.sql, model, id);
  const stored = await redis.find(model, storedId(model, id));
  const grantId = stored ? (JSON.parse(stored.payload) as ArtifactPayload).grantId : undefined;
  return typeof grantId === 'string' ? grantId : undefined;
}

export async function removeArtifact(db: Database, model: string, id: string): Promise<void> {
  const redis = redisFor(db, model);
  if (redis && isTokenModel(model)) await destroyArtifact(db.sql, model, id);
  if (redis) return redis.destroy(model, storedId(model, id));
  if (model === 'Session') {
    const uid = await destroySessionReturningUid(db.sql, id);
    if (uid) db.cache.forget(`Session:${uid}`);
    return;
  }
  await destroyArtifact(db.sql, model, id);
  if (model === 'Grant') db.cache.forget(`Grant:${id}`);
}

/** The provider's revokeByGrantId: one model's artifacts of a grant. */
export async function revokeArtifactsOfGrant(db: Database, model: string, grantId: string): Promise<void> {
  const redis = redisFor(db, model);
  if (!redis || isTokenModel(model)) await destroyArtifactsByGrantId(db.sql, model, grantId);
  if (redis) await redis.destroyOf('grant', grantId, model);
}
