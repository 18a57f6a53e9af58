/**
 * A database handle: Prisma Client for everything, plus the raw driver
 * (lib/db/sql.ts) for the provider's hot path. The server holds one, in its
 * context (lib/context.ts); the CLI, the tests and the bench open theirs by URL.
 */
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { env } from '../config/env.ts';
import { createLogger, type Log } from '../ops/log.ts';
import { PrismaClient as PostgresPrismaClient } from '../generated/postgresql/client.ts';
import { PrismaClient } from '../generated/sqlite/client.ts';
import type { ClientMetadata } from '../clients/repository.ts';
import { keyringFor, type Keyring } from './keyring.ts';
import { postgresReadCache, type ReadCache, sqliteReadCache } from './read-cache.ts';
import { openRedisArtifacts, type RedisArtifacts } from './redis-artifacts.ts';
import { redisNamespace } from './redis-namespace.ts';
import { warnAboutModes } from './file-modes.ts';
import { openSql, splitSchema, type Sql } from './sql.ts';
import { withLiteralLike } from './text-search.ts';

export type { PrismaClient };

export interface Database {
  readonly url: string;
  /** The two generated clients have identical models; the SQLite one's type stands for both. */
  readonly prisma: PrismaClient;
  readonly sql: Sql;
  /**
   * What seals the secrets stored in this database (lib/db/keyring.ts). Read on
   * first use, so commands that touch no secret need no key.
   */
  readonly keyring: Keyring;
  /**
   * Where what fails out of any caller's sight is reported (the SQLite
   * checkpointer, an audit entry that could not be written): the context's
   * logger for the server's handle (lib/context.ts), a default one otherwise.
   */
  readonly log: Log;
  /**
   * Where the provider's short-lived artifacts live when REDIS_URL is set
   * (lib/db/redis-artifacts.ts; lib/db/artifacts.ts says which); undefined: in
   * the database with everything else.
   */
  readonly redisArtifacts?: RedisArtifacts;
  /** The process's cache of grants, sessions, accounts and clients' throttle state (lib/db/read-cache.ts). */
  readonly cache: ReadCache;
  /**
   * The short-lived copies of clients' metadata the provider reads through
   * (lib/clients/repository.ts cachedClientMetadata), by client id: one per handle,
   * so every module graph of the server, which shares the context's handle, sees one.
   */
  readonly clientMetadata: Map<string, CachedClientMetadata>;
  /** PostgreSQL: the shared pool's connections and waiting queries, for the metrics (lib/ops/metrics.ts). */
  readonly poolUse?: () => { total: number; idle: number; waiting: number };
}

/** A client's metadata as read (a read in flight included: concurrent misses share it), until `expiresAt`. */
export interface CachedClientMetadata {
  metadata: Promise<ClientMetadata | undefined>;
  expiresAt: number;
}

export interface DatabaseOptions {
  /** Used when this call opens the handle; a handle already open keeps its own. */
  log?: Log;
  /**
   * REDIS_URL: the provider's short-lived artifacts in Redis. Used when this
   * call opens the handle; asking for it of a handle opened without it throws,
   * rather than leave one process reading artifacts where another does not write them.
   */
  redisUrl?: string;
}

/** Open handles by URL, so every caller in this module graph shares one pool per database. */
const handles = new Map<string, Database>();

/** The handle for a database URL, opened on first use. */
export function database(url: string, options: DatabaseOptions = {}): Database {
  const cache = handles;
  let db = cache.get(url);
  if (!db) {
    db = openDatabase(url, options);
    cache.set(url, db);
  } else if (options.redisUrl && !db.redisArtifacts) {
    throw new Error('this database was opened without REDIS_URL in this process: open it with REDIS_URL first');
  }
  return db;
}

/**
 * A handle of the caller's own, outside the shared ones (close it with `closeHandle`): the CLI's, so a
 * command line run inside another program (its tests) never closes that program's handle at its end.
 */
export function openDatabase(url: string, options: DatabaseOptions = {}): Database {
  let keyring: Keyring | undefined;
  let log = options.log;
  const handle = (prisma: PrismaClient, sql: Sql, cache: ReadCache, pool?: pg.Pool): Database => {
    const db: Database = {
      url,
      prisma,
      sql,
      get keyring() {
        return (keyring ??= keyringFor(url, env().SECRETS_KEY));
      },
      get log() {
        return (log ??= createLogger());
      },
      // Keys in Redis carry a random namespace kept in the database, shared by the deployment's instances (lib/db/redis-artifacts.ts).
      // Redis lost and back is logged once each, to this handle's log (lib/db/redis-health.ts).
      redisArtifacts: options.redisUrl ? openRedisArtifacts(options.redisUrl, () => redisNamespace(db), { log: () => db.log }) : undefined,
      cache,
      clientMetadata: new Map(),
      poolUse: pool && (() => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount })),
    };
    return db;
  };
  if (url.startsWith('file:')) {
    // withLiteralLike: searches match % and _ literally (lib/db/text-search.ts).
    const adapter = withLiteralLike(new PrismaBetterSqlite3({ url: url.slice('file:'.length) }));
    const sql = openSql(url, undefined, {
      onCheckpointFailure: (message) => db.log.error({ detail: message }, 'SQLite checkpoint failed'),
      // Called while opening, before `db` exists.
      onOpenModes: warnAboutModes(() => (log ??= createLogger())),
    });
    const db: Database = handle(
      new PrismaClient({ adapter }),
      sql,
      sqliteReadCache(() => sql.dataVersion!()),
    );
    watchClients(db);
    return db;
  }
  const { connectionString, schema } = splitSchema(url);
  const pool = new pg.Pool({
    connectionString,
    max: 10,
    allowExitOnIdle: true /* idle connections do not keep a CLI or test process alive */,
    options: schema ? `-c search_path=${schema}` : undefined,
  });
  const prisma = new PostgresPrismaClient({ adapter: new PrismaPg(pool, { schema }) }) as unknown as PrismaClient;
  const db: Database = handle(
    prisma,
    openSql(url, pool),
    // The error only: a driver's message can name the host or the user, never the password (the URL is not logged).
    postgresReadCache(url, {
      // current_schema(): the pool's connections share the listener's search_path.
      notify: (key) => db.sql.one("SELECT pg_notify('gatehouse_cache', current_schema() || ':' || ?) AS sent", [key]).then(() => undefined),
      onError: (message, error) => db.log.warn({ err: error }, `${message}: reading without the cache until it is back`),
    }),
    pool,
  );
  watchClients(db);
  return db;
}

/**
 * A client changed through another instance or the CLI is forgotten from the provider's client cache
 * (lib/clients/repository.ts) as soon as the read cache hears of it, not only when its 2 s run out.
 */
function watchClients(db: Database) {
  db.cache.watch({
    forget: (key) => key.startsWith('Client:') && db.clientMetadata.delete(key.slice('Client:'.length)),
    clear: () => db.clientMetadata.clear(),
  });
}

/** Closes and forgets the shared handle for a URL (tests, the end of a process). */
export async function closeDatabase(url: string): Promise<void> {
  const db = handles.get(url);
  if (!db) return;
  handles.delete(url);
  await closeHandle(db);
}

/** Closes a handle: its read cache, its Redis, its pools. */
export async function closeHandle(db: Database): Promise<void> {
  await db.cache.close();
  await db.redisArtifacts?.close();
  await db.prisma.$disconnect();
  await db.sql.close();
}
