/**
 * The driver underneath Prisma, for the few hot-path queries where Prisma
 * Client's per-query cost dominates (the provider's artifact store, client and
 * account lookups on every token request). Prisma still owns the schema and the
 * migrations of every table; this module only runs prepared statements against
 * the same database. Statements are written with `?` placeholders and
 * translated to `$n` for PostgreSQL once per statement text.
 */
import BetterSqlite3 from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import pg from 'pg';

export type SqlValue = string | number | bigint | boolean | null;
export type Row = Record<string, unknown>;

export interface Sql {
  readonly kind: 'sqlite' | 'postgresql';
  /** First row or undefined. */
  one<T extends Row>(sql: string, params?: SqlValue[]): Promise<T | undefined>;
  all<T extends Row>(sql: string, params?: SqlValue[]): Promise<T[]>;
  /** Number of rows changed. */
  run(sql: string, params?: SqlValue[]): Promise<number>;
  close(): Promise<void>;
}

/** Opens the driver for a DATABASE_URL; a PostgreSQL pool may be shared with Prisma's adapter. */
export function openSql(databaseUrl: string, pool?: pg.Pool): Sql {
  return databaseUrl.startsWith('file:') ? openSqlite(databaseUrl.slice('file:'.length)) : openPostgres(databaseUrl, pool);
}

function openSqlite(path: string): Sql {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new BetterSqlite3(path);
  // WAL lets readers run beside the single writer; a busy timeout makes a
  // second process (the CLI, a migration) wait instead of failing.
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('synchronous = NORMAL');
  const statements = new Map<string, BetterSqlite3.Statement>();
  const prepare = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
  const bind = (params: SqlValue[]) => params.map((p) => (typeof p === 'boolean' ? (p ? 1 : 0) : p));
  return {
    kind: 'sqlite',
    async one<T extends Row>(sql: string, params: SqlValue[] = []) {
      return prepare(sql).get(...bind(params)) as T | undefined;
    },
    async all<T extends Row>(sql: string, params: SqlValue[] = []) {
      return prepare(sql).all(...bind(params)) as T[];
    },
    async run(sql: string, params: SqlValue[] = []) {
      return prepare(sql).run(...bind(params)).changes;
    },
    async close() {
      db.close();
    },
  };
}

function openPostgres(url: string, shared?: pg.Pool): Sql {
  const { connectionString, schema } = splitSchema(url);
  // The schema (Prisma's ?schema=) becomes the session's search_path at connect time.
  const pool = shared ?? new pg.Pool({ connectionString, max: 10, allowExitOnIdle: true, options: schema ? `-c search_path=${schema}` : undefined });
  const texts = new Map<string, string>();
  const translate = (sql: string) => {
    let text = texts.get(sql);
    if (text === undefined) {
      let n = 0;
      text = sql.replace(/\?/g, () => `$${++n}`);
      texts.set(sql, text);
    }
    return text;
  };
  return {
    kind: 'postgresql',
    async one<T extends Row>(sql: string, params: SqlValue[] = []) {
      const result = await pool.query(translate(sql), params);
      return result.rows[0] as T | undefined;
    },
    async all<T extends Row>(sql: string, params: SqlValue[] = []) {
      return (await pool.query(translate(sql), params)).rows as T[];
    },
    async run(sql: string, params: SqlValue[] = []) {
      return (await pool.query(translate(sql), params)).rowCount ?? 0;
    },
    async close() {
      await pool.end();
    },
  };
}

/** Prisma-style `?schema=name` is not understood by pg: take it out and apply it as search_path. */
export function splitSchema(url: string): { connectionString: string; schema?: string } {
  const parsed = new URL(url);
  const schema = parsed.searchParams.get('schema') ?? undefined;
  parsed.searchParams.delete('schema');
  return { connectionString: parsed.toString(), schema };
}
