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
import { keyringFor, type Keyring } from './keyring.ts';
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
}

export interface DatabaseOptions {
  /** Used when this call opens the handle; a handle already open keeps its own. */
  log?: Log;
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
  }
  return db;
}

function openDatabase(url: string, options: DatabaseOptions): Database {
  let keyring: Keyring | undefined;
  let log = options.log;
  const handle = (prisma: PrismaClient, sql: Sql): Database => ({
    url,
    prisma,
    sql,
    get keyring() {
      return (keyring ??= keyringFor(url, env().SECRETS_KEY));
    },
    get log() {
      return (log ??= createLogger());
    },
  });
  if (url.startsWith('file:')) {
    // withLiteralLike: searches match % and _ literally (lib/db/text-search.ts).
    const adapter = withLiteralLike(new PrismaBetterSqlite3({ url: url.slice('file:'.length) }));
    const db: Database = handle(
      new PrismaClient({ adapter }),
      openSql(url, undefined, { onCheckpointFailure: (message) => db.log.error({ detail: message }, 'SQLite checkpoint failed') }),
    );
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
  return handle(prisma, openSql(url, pool));
}

/** Closes and forgets the handle for a URL (tests, CLI exit). */
export async function closeDatabase(url: string): Promise<void> {
  const db = handles.get(url);
  if (!db) return;
  handles.delete(url);
  await db.prisma.$disconnect();
  await db.sql.close();
}
