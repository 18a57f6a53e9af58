/**
 * Where the throttling counters of lib/platform/throttle.ts live, as
 * rate-limiter-flexible limiters that every instance shares:
 *
 * - PostgreSQL: the library's own RateLimiterPostgres on `throttle_counters`
 *   (`tableCreated: true`: Prisma's migration made the table, with the
 *   library's columns in its order). The library needs a pg Pool, and
 *   lib/db/database.ts keeps the one it shares with Prisma to itself, so the
 *   store has a small pool of its own on the same schema.
 * - SQLite: the library's RateLimiterSQLite wants the raw better-sqlite3
 *   handle, which lib/db/sql.ts keeps behind `Sql`. Using it would mean a second
 *   connection to the file, with its own pragmas and lifetime, writing beside
 *   the one every other write goes through. Its RateLimiterPrisma works on both
 *   databases, but through Prisma Client, whose per-query cost is why
 *   lib/db/sql.ts exists, and not atomically (deleteMany, then upsert). So
 *   `SqlCounterStore` below is the smallest adapter: the library's store
 *   contract (`_upsert`, `_get`, `_delete` of RateLimiterStoreAbstract) over
 *   `db.sql`, one statement each, the same SQL as the library's SQLite store.
 *   Every limiter method (consume, penalty, reward, set, get, delete) is the
 *   library's.
 * - Redis, when REDIS_URL is set: RateLimiterRedis with ioredis, the client the
 *   library documents first. Keys expire in Redis itself, and carry the
 *   deployment's namespace (lib/db/redis-namespace.ts) after the prefix: two
 *   deployments (or a test's own instance) sharing a Redis count apart.
 *   While Redis is lost (lib/db/redis-health.ts), every limiter counts in the
 *   database instead, asked at once rather than after reconnection attempts; a
 *   command that fails on the wire goes there too (the library's
 *   `insuranceLimiter`). So a token request, whose client
 *   authentication reads a counter, does not fail with Redis. Why the database
 *   and not "allow everything" (fail open) or "refuse everything" (fail closed):
 *   failing open hands a password guesser the outage, failing closed locks every
 *   person out of signing in for it. The counts start again there: at most one more allowance
 *   of attempts per key and outage, and a lock written to Redis is not seen
 *   until Redis is back.
 *
 * Times come from Date.now() (the library reads it everywhere), so tests move
 * the clock with node:test's mock timers.
 */
import { Redis } from 'ioredis';
import pg from 'pg';
import rateLimiterFlexible, {
  type RateLimiterAbstract,
  type RateLimiterRes as Result,
  type RateLimiterStoreAbstract as StoreAbstract,
} from 'rate-limiter-flexible';
// Not among the package's runtime exports, though its types declare it: the base of every store.
import RateLimiterStoreAbstractModule from 'rate-limiter-flexible/lib/RateLimiterStoreAbstract.js';
import type { Database } from './database.ts';
import { type RedisHealth, redisHealth, redisWhere } from './redis-health.ts';
import { redisNamespace } from './redis-namespace.ts';
import { splitSchema, type Sql } from './sql.ts';

const { RateLimiterPostgres, RateLimiterRedis, RateLimiterRes } = rateLimiterFlexible;
const RateLimiterStoreAbstract = RateLimiterStoreAbstractModule as unknown as typeof StoreAbstract;

const TABLE = 'throttle_counters';

export interface LimiterOptions {
  /** Part of every stored key (`<prefix>:<key>`), so limiters can share one table. */
  keyPrefix: string;
  /** Points a key may consume in `duration` before `consume` rejects. */
  points: number;
  /** Seconds from a key's first point until its count starts again. */
  duration: number;
}

export interface CounterStore {
  readonly kind: 'sqlite' | 'postgresql' | 'redis';
  limiter(options: LimiterOptions): RateLimiterAbstract;
  /** Deletes rows that expired over an hour ago (Redis expires keys itself). */
  sweep(): Promise<void>;
  close(): Promise<void>;
}

export interface CounterStoreOptions {
  /** Counters in Redis instead of the database. */
  redisUrl?: string;
  /** Prepended to every Redis key: several deployments (or tests) can share one Redis. */
  redisKeyPrefix?: string;
}

export function openCounterStore(db: Database, { redisUrl, redisKeyPrefix = 'gatehouse' }: CounterStoreOptions = {}): CounterStore {
  const inDatabase = () => (db.sql.kind === 'sqlite' ? sqliteStore(db.sql) : postgresStore(db));
  if (!redisUrl) return inDatabase();
  // One view of Redis per process: the artifacts' when they use the same one (lib/db/redis-artifacts.ts).
  const shared = db.redisArtifacts?.health;
  const health = shared?.where === redisWhere(redisUrl) ? shared : redisHealth(redisUrl, () => db.log);
  return redisStore(redisUrl, redisKeyPrefix, () => redisNamespace(db), inDatabase(), health);
}

/** Rows a sweep may delete: expired for over an hour, as the library's own sweep does. */
const sweep = (sql: Sql) => sql.run(`DELETE FROM ${TABLE} WHERE expire < ?`, [Date.now() - 3_600_000]).then(() => undefined);

function sqliteStore(sql: Sql): CounterStore {
  return {
    kind: 'sqlite',
    limiter: (options) => new SqlCounterStore({ ...options, storeClient: sql }),
    sweep: () => sweep(sql),
    async close() {},
  };
}

function postgresStore(db: Database): CounterStore {
  const { connectionString, schema } = splitSchema(db.url);
  // Two connections: the counters are touched once or twice per password check, never in bulk.
  const pool = new pg.Pool({ connectionString, max: 2, allowExitOnIdle: true });
  return {
    kind: 'postgresql',
    limiter: (options) =>
      new RateLimiterPostgres({
        ...options,
        storeClient: pool,
        storeType: 'pool',
        tableName: TABLE,
        schemaName: schema,
        tableCreated: true,
        // One sweep for the whole table (sweep() below), not one timer per limiter.
        clearExpiredByTimeout: false,
      }),
    sweep: () => sweep(db.sql),
    close: () => pool.end(),
  };
}

/** How often the database's counters are swept while Redis keeps them: only rows written during an outage are there. */
const FALLBACK_SWEEP_MS = 300_000;

function redisStore(url: string, prefix: string, namespace: () => Promise<string>, fallback: CounterStore, health: RedisHealth): CounterStore {
  // A command fails after two reconnection attempts instead of twenty: a sign-in
  // waiting on a Redis that is down should fail, not hang.
  const redis = new Redis(url, { maxRetriesPerRequest: 2 });
  const watch = health.watch(redis);
  // The rows an outage left in the database expire there; the throttle sweeps only a database store's (lib/platform/throttle.ts).
  const sweeper = setInterval(() => void fallback.sweep().catch(() => {}), FALLBACK_SWEEP_MS);
  sweeper.unref();
  let named: Promise<string> | undefined;
  const keyPrefix = () =>
    (named ??= namespace().catch((error: unknown) => {
      named = undefined; // asked again next time
      throw error;
    }));
  return {
    kind: 'redis',
    limiter(options) {
      const insuranceLimiter = fallback.limiter(options);
      return lateLimiter(
        async () =>
          new RateLimiterRedis({
            ...options,
            keyPrefix: `${prefix}:${await keyPrefix()}:${options.keyPrefix}`,
            storeClient: redis,
            insuranceLimiter,
          }),
        insuranceLimiter,
        watch.lost,
      );
    },
    async sweep() {},
    async close() {
      clearInterval(sweeper);
      watch.stop();
      await redis.quit().catch(() => redis.disconnect());
      await fallback.close();
    },
  };
}

/**
 * A limiter built once its key prefix is known (the namespace is read from the
 * database on first use): each method the throttle calls waits for it, then
 * is the library's own; `fallback`'s while Redis is `lost()`. Not the library's
 * `rejectIfRedisNotReady`, which also counts in the database while the client
 * makes its first connection: a lock written there at start would not be seen
 * once Redis answers, nor cleared by an unlock.
 */
function lateLimiter(build: () => Promise<RateLimiterAbstract>, fallback: RateLimiterAbstract, lost: () => boolean): RateLimiterAbstract {
  let built: Promise<RateLimiterAbstract> | undefined;
  const limiter = () =>
    (built ??= build().catch((error: unknown) => {
      built = undefined;
      throw error;
    }));
  const methods = ['consume', 'penalty', 'reward', 'get', 'set', 'block', 'delete'] as const;
  return Object.fromEntries(
    methods.map((name) => [
      name,
      async (...args: unknown[]) => {
        const built = lost() ? fallback : await limiter();
        return (built[name] as (...a: unknown[]) => Promise<unknown>).apply(built, args);
      },
    ]),
  ) as unknown as RateLimiterAbstract;
}

interface CounterRow {
  points: number;
  expire: number | string | null;
}

/**
 * rate-limiter-flexible's store contract over lib/db/sql.ts. Each call is one
 * statement, so concurrent failures are all counted. A row whose `expire` has
 * passed starts a new window, as in the library's own SQL stores.
 */
class SqlCounterStore extends RateLimiterStoreAbstract {
  private readonly sql: Sql;

  constructor(options: LimiterOptions & { storeClient: Sql }) {
    super(options);
    this.sql = options.storeClient;
  }

  _upsert(key: string, points: number, msDuration: number, forceExpire = false): Promise<CounterRow | undefined> {
    const now = Date.now();
    const expire = msDuration > 0 ? now + msDuration : null;
    if (forceExpire) {
      return this.sql.one<CounterRow & Record<string, unknown>>(
        `INSERT INTO ${TABLE} (key, points, expire) VALUES (?, ?, ?)
         ON CONFLICT (key) DO UPDATE SET points = excluded.points, expire = excluded.expire
         RETURNING points, expire`,
        [key, points, expire],
      );
    }
    return this.sql.one<CounterRow & Record<string, unknown>>(
      `INSERT INTO ${TABLE} (key, points, expire) VALUES (?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET
         points = CASE WHEN expire IS NULL OR expire > ? THEN points + excluded.points ELSE excluded.points END,
         expire = CASE WHEN expire IS NULL OR expire > ? THEN expire ELSE excluded.expire END
       RETURNING points, expire`,
      [key, points, expire, now, now],
    );
  }

  async _get(key: string): Promise<CounterRow | null> {
    const row = await this.sql.one<CounterRow & Record<string, unknown>>(
      `SELECT points, expire FROM ${TABLE} WHERE key = ? AND (expire > ? OR expire IS NULL)`,
      [key, Date.now()],
    );
    return row ?? null;
  }

  async _delete(key: string): Promise<boolean> {
    // DELETE ... RETURNING runs at once, like the upsert; `run` would wait for
    // the group commit and could land after a later upsert of the same key.
    return (await this.sql.one(`DELETE FROM ${TABLE} WHERE key = ? RETURNING key`, [key])) !== undefined;
  }

  _getRateLimiterRes(_key: string, changedPoints: number, row: CounterRow): Result {
    const isFirstInDuration = changedPoints === row.points;
    const consumed = isFirstInDuration ? changedPoints : row.points;
    const msBeforeNext = row.expire === null ? -1 : Math.max(Number(row.expire) - Date.now(), 0);
    return new RateLimiterRes(Math.max(this.points - consumed, 0), msBeforeNext, consumed, isFirstInDuration);
  }
}
