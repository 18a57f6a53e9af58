/**
 * The driver underneath Prisma, for the few hot-path queries where Prisma
 * Client's per-query cost dominates (the provider's artifact store, client and
 * account lookups on every token request). Prisma still owns the schema and the
 * migrations of every table; this module only runs prepared statements against
 * the same database. Statements are written with `?` placeholders and
 * translated to `$n` for PostgreSQL once per statement text.
 */
import BetterSqlite3 from 'better-sqlite3';
import { resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import { type ModeReport, secureSqliteFiles } from './file-modes.ts';

export type SqlValue = string | number | bigint | boolean | null;
export type Row = Record<string, unknown>;

export interface Sql {
  readonly kind: 'sqlite' | 'postgresql';
  /** First row or undefined. */
  one<T extends Row>(sql: string, params?: SqlValue[]): Promise<T | undefined>;
  all<T extends Row>(sql: string, params?: SqlValue[]): Promise<T[]>;
  /**
   * Number of rows changed. `durable: false` marks a write whose loss in a
   * database-server crash fails safe: a new artifact (code, token, session)
   * that then simply does not exist. PostgreSQL commits those without waiting
   * for the WAL flush (synchronous_commit = off; a later durable commit flushes
   * them too). Consuming, revoking and deleting stay durable, so a crash can
   * never bring back a used code or a revoked token.
   */
  run(sql: string, params?: SqlValue[], options?: { durable?: boolean }): Promise<number>;
  /**
   * SQLite only: PRAGMA data_version, which changes whenever another connection
   * (the CLI, Prisma's) has committed since this connection last asked; the read
   * cache (lib/db/read-cache.ts) forgets everything when it does.
   */
  dataVersion?(): number;
  /**
   * One transaction that reads a row, then writes what that row decided (`plan.write`, which may throw to roll
   * back): committed together or not at all. SQLite: BEGIN IMMEDIATE, so the write lock is held from the read,
   * and the read, the writes and the COMMIT run in one synchronous stretch: no other code of the process runs
   * while the lock is held (a Prisma query of this process on its own connection would otherwise wait out its
   * busy timeout on this very thread, which the lock's holder needs to finish). PostgreSQL: a connection of the
   * pool, BEGIN ... COMMIT (take locks in the read with FOR UPDATE).
   */
  transaction(plan: ReadThenWrite): Promise<void>;
  close(): Promise<void>;
}

/** A statement and its parameters. */
export type Statement = readonly [sql: string, params: SqlValue[]];

/**
 * What `Sql.transaction` runs: the writes `before` (made first, so that a lock the read takes is held only for
 * what follows it), one read, then the writes it decides.
 */
export interface ReadThenWrite {
  before?: Statement[];
  read: Statement;
  write(row: Row | undefined): Statement[];
}

/** The longest run of rows one `insertRows` statement holds. */
const ROWS_PER_INSERT = 128;

/**
 * `insert` (`INSERT INTO t (a, b)`) of many rows as few statements of a few shapes: runs of 128, 64, …, 1 rows,
 * so each shape is prepared once per connection however the row counts vary, and no statement nears the
 * dialects' limits on parameters.
 */
export function insertRows(insert: string, rows: SqlValue[][]): Statement[] {
  const statements: Statement[] = [];
  for (let at = 0; at < rows.length; ) {
    let size = ROWS_PER_INSERT;
    while (size > rows.length - at) size /= 2;
    const run = rows.slice(at, at + size);
    const marks = `(${run[0].map(() => '?').join(', ')})`;
    statements.push([`${insert} VALUES ${Array.from({ length: size }, () => marks).join(', ')}`, run.flat()]);
    at += size;
  }
  return statements;
}

/** A write refused for a value another row holds (a unique index or a primary key), from either dialect's driver. */
export function isDriverUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
}

export interface SqlOptions {
  /** The SQLite checkpointer's failures (a message per failed checkpoint); ignored when unset. */
  onCheckpointFailure?: (message: string) => void;
  /** The SQLite files and folder found readable by others (lib/db/file-modes.ts): narrowed, or not ours to narrow. For a log line. */
  onOpenModes?: (report: ModeReport) => void;
}

/** Opens the driver for a DATABASE_URL; a PostgreSQL pool may be shared with Prisma's adapter. */
export function openSql(databaseUrl: string, pool?: pg.Pool, options: SqlOptions = {}): Sql {
  return databaseUrl.startsWith('file:') ? onFirstUse(() => openSqlite(databaseUrl.slice('file:'.length), options)) : openPostgres(databaseUrl, pool);
}

/**
 * A SQLite file is opened by the first statement, not by the handle: the
 * schema engine takes the file in exclusive locking mode and fails
 * (SQLITE_BUSY) while any other connection has read it, so a server must be
 * able to hold its handle before its start has migrated (lib/start/first-start.ts).
 * A pg pool connects on first use already.
 */
function onFirstUse(open: () => Sql): Sql {
  let sql: Sql | undefined;
  let closed = false;
  const opened = () => {
    if (closed && !sql) throw new Error('the database handle is closed');
    return (sql ??= open());
  };
  return {
    kind: 'sqlite',
    one: async (statement, params) => opened().one(statement, params),
    all: async (statement, params) => opened().all(statement, params),
    run: async (statement, params, options) => opened().run(statement, params, options),
    dataVersion: () => opened().dataVersion!(),
    transaction: async (plan) => opened().transaction(plan),
    async close() {
      closed = true;
      await sql?.close();
    },
  };
}

function openSqlite(path: string, { onCheckpointFailure, onOpenModes }: SqlOptions): Sql {
  const modes = path === ':memory:' ? undefined : secureSqliteFiles(path);
  if (modes && modes.narrowed.length + modes.refused.length > 0) onOpenModes?.(modes);
  const db = new BetterSqlite3(path);
  // WAL lets readers run beside the single writer; a busy timeout makes a
  // second process (the CLI, a migration) wait instead of failing.
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('synchronous = NORMAL');
  // Reads through a memory map instead of a read() call per page: cheaper for
  // the random lookups tokens make (bench/results/notes-2026-11-22-session2.md).
  db.pragma('mmap_size = 67108864');
  const checkpointer = path === ':memory:' ? undefined : backgroundCheckpointer(db, path, onCheckpointFailure);
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
  const commit = groupCommit(db);
  const dataVersion = db.prepare('PRAGMA data_version').pluck();
  return {
    kind: 'sqlite',
    dataVersion: () => dataVersion.get() as number,
    async one<T extends Row>(sql: string, params: SqlValue[] = []) {
      return prepare(sql).get(...bind(params)) as T | undefined;
    },
    async all<T extends Row>(sql: string, params: SqlValue[] = []) {
      return prepare(sql).all(...bind(params)) as T[];
    },
    run(sql: string, params: SqlValue[] = []) {
      checkpointer?.start();
      return commit(prepare(sql), bind(params));
    },
    async transaction(plan: ReadThenWrite): Promise<void> {
      checkpointer?.start();
      // The write lock is taken without the busy timeout's wait, which would block this thread while a Prisma
      // transaction of this process holds the lock and needs the thread to end: busy, it tries again after 5 ms,
      // for as long as the busy timeout would have waited. Once it is taken, nothing awaits until COMMIT.
      for (let waited = 0; ; waited += 5) {
        // The writes already queued go first, in their own transaction: none may land in this one.
        commit.flush();
        db.pragma('busy_timeout = 0');
        let began = false;
        try {
          db.exec('BEGIN IMMEDIATE');
          began = true;
        } catch (error) {
          if ((error as { code?: string }).code !== 'SQLITE_BUSY' || waited >= 5000) throw error;
        } finally {
          db.pragma('busy_timeout = 5000');
        }
        if (began) {
          try {
            for (const [sql, params] of plan.before ?? []) prepare(sql).run(...bind(params));
            const [readSql, readParams] = plan.read;
            const row = prepare(readSql).get(...bind(readParams)) as Row | undefined;
            for (const [sql, params] of plan.write(row)) prepare(sql).run(...bind(params));
            db.exec('COMMIT');
            return;
          } catch (error) {
            if (db.inTransaction) db.exec('ROLLBACK');
            throw error;
          }
        }
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    },
    async close() {
      commit.flush();
      await checkpointer?.stop();
      db.close();
    },
  };
}

/** The checkpointer thread: its own connection to the same file, copying the WAL back into the database. */
const CHECKPOINTER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require('better-sqlite3');
const db = new Database(workerData.path, { fileMustExist: true });
db.pragma('busy_timeout = 5000');
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (error) {
    parentPort.postMessage(String(error && error.message));
  }
}, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

/**
 * SQLite's automatic checkpoint runs inside whichever commit crosses 1,000 WAL
 * pages, on the main thread, with an fsync: a large part of a write's cost and
 * the cause of latency spikes. A worker thread checkpoints (PASSIVE: it never
 * blocks readers or the writer) every 250 ms instead; the main connection's
 * automatic checkpoint comes back if the thread cannot run. Started on the
 * first write, so read-only uses (and `next build`) never start it.
 */
function backgroundCheckpointer(db: BetterSqlite3.Database, path: string, onFailure: (message: string) => void = () => undefined) {
  let worker: Worker | undefined;
  let started = false;
  const fallBack = () => {
    worker = undefined;
    if (db.open) db.pragma('wal_autocheckpoint = 1000');
  };
  return {
    start() {
      if (worker || started) return;
      started = true;
      try {
        worker = new Worker(CHECKPOINTER_SOURCE, { eval: true, workerData: { path: resolve(path), intervalMs: 250 } });
      } catch {
        return fallBack();
      }
      worker.on('message', onFailure);
      worker.on('error', fallBack);
      worker.on('exit', fallBack);
      // After the listeners: adding a 'message' listener refs the worker again.
      worker.unref();
      db.pragma('wal_autocheckpoint = 0');
    },
    async stop() {
      const running = worker;
      if (!running) return;
      worker = undefined;
      running.removeAllListeners('exit');
      const exited = new Promise((done) => running.once('exit', done));
      running.ref(); // so that the process waits for the thread's last checkpoint and close
      running.postMessage('stop');
      await exited;
    },
  };
}

interface PendingWrite {
  statement: BetterSqlite3.Statement;
  params: unknown[];
  resolve(changes: number): void;
  reject(error: unknown): void;
  changes?: number;
  error?: unknown;
}

/**
 * Group commit. A SQLite commit writes every page it dirtied to the WAL, and
 * an artifact's random primary key dirties a different index page each time:
 * batching several writes into one transaction shares those pages and the
 * commit (bench/results/notes-2026-11-22-session2.md measured it). Writes issued in the same turn of the event loop
 * (concurrent token requests) therefore run in one transaction at the next
 * setImmediate; each caller's promise settles only after that commit, so a
 * response never acknowledges an uncommitted write. Statements keep their
 * order (a racing second consume still sees the first), and one failing
 * statement fails only its own caller, as SQLite rolls back just that statement.
 */
function groupCommit(db: BetterSqlite3.Database) {
  let pending: PendingWrite[] = [];
  const runBatch = db.transaction((batch: PendingWrite[]) => {
    for (const write of batch) {
      try {
        write.changes = write.statement.run(...write.params).changes;
      } catch (error) {
        // An error that ended the whole transaction (I/O, disk full) fails the batch.
        if (!db.inTransaction) throw error;
        write.error = error;
      }
    }
  });
  const flush = () => {
    const batch = pending;
    pending = [];
    if (batch.length === 0) return;
    try {
      runBatch(batch);
    } catch (error) {
      for (const write of batch) write.reject(error);
      return;
    }
    for (const write of batch) {
      if (write.error !== undefined) write.reject(write.error);
      else write.resolve(write.changes ?? 0);
    }
  };
  const enqueue = (statement: BetterSqlite3.Statement, params: unknown[]) =>
    new Promise<number>((resolve, reject) => {
      if (pending.length === 0) setImmediate(flush);
      pending.push({ statement, params, resolve, reject });
    });
  return Object.assign(enqueue, { flush });
}

function openPostgres(url: string, shared?: pg.Pool): Sql {
  const { connectionString, schema } = splitSchema(url);
  // The schema (Prisma's ?schema=) becomes the session's search_path at connect time.
  const searchPath = schema ? ` -c search_path=${schema}` : '';
  const pool = shared ?? new pg.Pool({ connectionString, max: 10, allowExitOnIdle: true, options: searchPath.trim() || undefined });
  let relaxed: pg.Pool | undefined;
  const relaxedPool = () => (relaxed ??= new pg.Pool({ connectionString, max: 10, allowExitOnIdle: true, options: `-c synchronous_commit=off${searchPath}` }));
  // Named statements: each connection parses and plans a statement once, not on every query.
  const statements = new Map<string, { name: string; text: string }>();
  const statement = (sql: string, values: SqlValue[]) => {
    let known = statements.get(sql);
    if (!known) {
      let n = 0;
      known = { name: `gatehouse_${statements.size}`, text: sql.replace(/\?/g, () => `$${++n}`) };
      statements.set(sql, known);
    }
    return { ...known, values };
  };
  return {
    kind: 'postgresql',
    async one<T extends Row>(sql: string, params: SqlValue[] = []) {
      const result = await pool.query(statement(sql, params));
      return result.rows[0] as T | undefined;
    },
    async all<T extends Row>(sql: string, params: SqlValue[] = []) {
      return (await pool.query(statement(sql, params))).rows as T[];
    },
    async run(sql: string, params: SqlValue[] = [], options: { durable?: boolean } = {}) {
      const target = options.durable === false ? relaxedPool() : pool;
      return (await target.query(statement(sql, params))).rowCount ?? 0;
    },
    async transaction(plan: ReadThenWrite): Promise<void> {
      const client = await pool.connect();
      let broken: unknown;
      try {
        await client.query('BEGIN');
        for (const [sql, params] of plan.before ?? []) await client.query(statement(sql, params));
        const [readSql, readParams] = plan.read;
        const row = (await client.query(statement(readSql, readParams))).rows[0] as Row | undefined;
        for (const [sql, params] of plan.write(row)) await client.query(statement(sql, params));
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch((rollbackError: unknown) => {
          broken = rollbackError;
        });
        throw error;
      } finally {
        // A connection whose rollback failed is in an unknown state: the pool drops it.
        client.release(broken instanceof Error ? broken : undefined);
      }
    },
    async close() {
      await Promise.all([pool.end(), relaxed?.end()]);
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
