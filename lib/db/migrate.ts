/**
 * Applies prisma/<kind>/migrations with Prisma's own schema engine compiled to
 * Wasm (@prisma/schema-engine-wasm), through the same driver adapters the app
 * uses, so nothing is downloaded at run time. The Wasm engine writes
 * `_prisma_migrations` exactly as `prisma migrate deploy` does, so both tools
 * share one history.
 *
 * Used by `next start` (instrumentation), CLI scripts and tests alike, so no
 * 'server-only' here. process.cwd() is the project root for every caller.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import type { PoolConfig, QueryConfig, QueryResult } from 'pg';
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import type { MigrationList, SchemaContainer, SchemaEngine } from '@prisma/schema-engine-wasm';
import { databaseKind, sqlitePath } from '../config/env.ts';
import { openSql, type Sql } from './sql.ts';

export type DatabaseKind = 'sqlite' | 'postgresql';
type Log = (msg: string) => void;
type EngineModule = typeof import('@prisma/schema-engine-wasm');

/**
 * Heavy dependencies (pg) load on first use, through a require
 * rooted at the project: a bare dynamic import() fails when tsx evaluates this
 * file from an ESM importer (its base URL is then a data: URL).
 */
const load = <T>(id: string): T => createRequire(path.join(process.cwd(), 'package.json'))(id) as T;

const NO_FILTERS = { externalTables: [], externalEnums: [] };

/** prisma/<kind>: a multi-file schema folder (schema.prisma + models.prisma symlink) with its migrations. */
export function prismaDir(kind: DatabaseKind): string {
  return path.join(process.cwd(), 'prisma', kind);
}

/**
 * Loads the Wasm engine once per process. Lazy because compiling the engine is
 * not free and most imports of this module (e.g. the build) never
 * migrate. Once per process: re-initialising the shared glue module (Node's own
 * import, which every module graph shares) with a second instance would break
 * engines created by the first. In the server only the start-up migrates, once
 * and in one module graph (lib/start/start.ts), so a module-level promise holds it.
 */
let engine: Promise<EngineModule> | undefined;
function loadEngine(): Promise<EngineModule> {
  return (engine ??= (async () => {
    // The package's `exports` map blocks deep imports: find its folder through
    // its main entry (resolved from the project root, invisible to bundlers).
    const dir = path.dirname(createRequire(path.join(process.cwd(), 'package.json')).resolve('@prisma/schema-engine-wasm'));
    const glue = (await import(
      /* webpackIgnore: true */ /* turbopackIgnore: true */ pathToFileURL(path.join(dir, 'schema_engine_bg.js')).href
    )) as EngineModule & { __wbg_set_wasm(exports: WebAssembly.Exports): void };
    const bytes = await fs.promises.readFile(path.join(dir, 'schema_engine_bg.wasm'));
    // The engine arms a 10 s timer around PostgreSQL's advisory lock and never
    // clears it: unref its timers so a CLI exits when the work is done.
    const imports: WebAssembly.ModuleImports = { ...(glue as unknown as WebAssembly.ModuleImports) };
    for (const name of Object.keys(imports).filter((n) => n.startsWith('__wbg_setTimeout_'))) {
      imports[name] = (fn: () => void, ms: number) => setTimeout(fn, ms >>> 0).unref();
    }
    const { instance } = await WebAssembly.instantiate(bytes, { './schema_engine_bg.js': imports });
    glue.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as () => void)();
    return glue;
  })().catch((e: unknown) => {
    engine = undefined; // let a later call retry
    throw e;
  }));
}

/**
 * pg settings for a postgresql:// URL. `?schema=` is Prisma's convention but
 * node-postgres ignores it (and @prisma/adapter-pg only uses its own `schema`
 * option to qualify client queries), so the schema becomes the session's
 * search_path: unqualified migration SQL then lands in it too.
 */
export function pgConnection(databaseUrl: string): { config: PoolConfig; schema: string } {
  const url = new URL(databaseUrl);
  const schema = url.searchParams.get('schema') || 'public';
  url.searchParams.delete('schema');
  const config: PoolConfig = { connectionString: url.toString() };
  if (schema !== 'public') config.options = `-c search_path=${pgIdent(schema)}`;
  return { config, schema };
}

function pgIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * A driver adapter factory for the engine, plus a close() that disposes every
 * connection it handed out: the engine does not, and an open pg pool would
 * keep a CLI process alive for its idle timeout. No URL: an offline factory
 * for diffing from `empty` (in-memory SQLite; a pg stand-in, see below).
 */
function adapterFor(kind: DatabaseKind, databaseUrl?: string): { factory: SqlMigrationAwareDriverAdapterFactory; close(): Promise<void> } {
  let inner: SqlMigrationAwareDriverAdapterFactory;
  if (kind === 'sqlite') {
    const file = databaseUrl ? sqlitePath(databaseUrl) : ':memory:';
    if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    const { PrismaBetterSqlite3 } = load<typeof import('@prisma/adapter-better-sqlite3')>('@prisma/adapter-better-sqlite3');
    inner = new PrismaBetterSqlite3({ url: file });
  } else if (databaseUrl) {
    const { PrismaPg } = load<typeof import('@prisma/adapter-pg')>('@prisma/adapter-pg');
    const pg = load<typeof import('pg')>('pg');
    // One connection: the engine's session-level advisory lock (pg_advisory_lock
    // 72707369, which serialises concurrent `migrate` runs) then covers the
    // statements it guards and is released by the same session.
    const { config, schema } = pgConnection(databaseUrl);
    const pool = new pg.Pool({ ...config, max: 1 });
    // The engine's introspection (diffs from a database) reads catalog columns
    // of PostgreSQL's one-byte "char" type (oid 18), which @prisma/adapter-pg
    // 7.10 rejects as unsupported; pg returns them as strings, so label them
    // text (oid 25). The adapter only calls query(config) => Promise.
    const query = pool.query.bind(pool) as (q: QueryConfig) => Promise<QueryResult>;
    pool.query = (async (q: QueryConfig) => {
      const result = await query(q);
      for (const field of result.fields ?? []) if (field.dataTypeID === 18) field.dataTypeID = 25;
      return result;
    }) as typeof pool.query;
    const prismaPg = new PrismaPg(pool, { schema, disposeExternalPool: true });
    inner = {
      provider: prismaPg.provider,
      adapterName: prismaPg.adapterName,
      connect: async () => {
        await ensureSchema(pool, schema);
        const adapter = await prismaPg.connect();
        // The adapter runs a script by splitting it at every ';', which breaks
        // string literals and $$ bodies and leaves a failed migration half
        // applied. Send it whole, as the native engine does: one simple-protocol
        // query (no parameters), which PostgreSQL runs as one transaction.
        adapter.executeScript = async (script) => void (await adapter.executeRaw({ sql: script, args: [], argTypes: [] }));
        return adapter;
      },
      connectToShadowDb: () => prismaPg.connectToShadowDb(),
    };
  } else {
    inner = offlinePg();
  }
  const opened: SqlDriverAdapter[] = [];
  const track = async (connect: () => Promise<SqlDriverAdapter>) => {
    const adapter = await connect();
    opened.push(adapter);
    return adapter;
  };
  const factory: SqlMigrationAwareDriverAdapterFactory = {
    provider: inner.provider,
    adapterName: inner.adapterName,
    connect: () => track(() => inner.connect()),
    connectToShadowDb: () => track(() => inner.connectToShadowDb()),
  };
  return { factory, close: async () => void (await Promise.all(opened.splice(0).map((a) => a.dispose()))) };
}

/**
 * The engine creates a missing schema itself, but before it takes its lock:
 * two processes starting on a new schema then race and one fails on
 * pg_namespace's unique index. Create it first, tolerating that same race.
 */
async function ensureSchema(pool: import('pg').Pool, schema: string): Promise<void> {
  if (schema === 'public') return;
  const { rowCount } = await pool.query({ text: 'SELECT 1 FROM pg_namespace WHERE nspname = $1', values: [schema] });
  if (rowCount) return;
  await pool.query({ text: `CREATE SCHEMA IF NOT EXISTS ${pgIdent(schema)}` }).catch((e: { code?: string }) => {
    if (e.code !== '23505' && e.code !== '42P06') throw e; // unique_violation, duplicate_schema: created meanwhile
  });
}

/**
 * The PostgreSQL engine connects on creation and asks only whether the schema
 * exists and the server version; a diff from `empty` needs nothing else. This
 * stand-in answers that probe (as PostgreSQL 16) so a first migration can be
 * written on a machine without PostgreSQL, and refuses anything else.
 */
function offlinePg(): SqlMigrationAwareDriverAdapterFactory {
  const refuse = (): never => {
    throw new Error('offline PostgreSQL stand-in: no database behind it');
  };
  const adapter: SqlDriverAdapter = {
    provider: 'postgres',
    adapterName: 'gatehouse-offline-pg',
    queryRaw: async ({ sql }) => {
      if (!sql.includes('server_version_num')) refuse();
      return { columnNames: ['exists', 'version', 'numeric_version'], columnTypes: [5, 7, 0], rows: [[true, 'PostgreSQL 16.0', 160000]] };
    },
    executeRaw: async () => refuse(),
    executeScript: async () => refuse(),
    startTransaction: async () => refuse(),
    getConnectionInfo: () => ({ schemaName: 'public', supportsRelationJoins: true }),
    dispose: async () => {},
  };
  return { provider: 'postgres', adapterName: adapter.adapterName, connect: async () => adapter, connectToShadowDb: async () => refuse() };
}

function schemaFiles(kind: DatabaseKind): SchemaContainer[] {
  const dir = prismaDir(kind);
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.prisma'))
    .sort()
    .map((f) => ({ path: path.join(dir, f), content: fs.readFileSync(path.join(dir, f), 'utf8') }));
}

/** The migrations folder as `prisma migrate` reads it (same ordering, same lockfile handling). */
function migrationsList(kind: DatabaseKind): MigrationList {
  const baseDir = path.join(prismaDir(kind), 'migrations');
  const lockPath = path.join(baseDir, 'migration_lock.toml');
  const entries = fs.existsSync(baseDir) ? fs.readdirSync(baseDir, { withFileTypes: true }) : [];
  const migrationDirectories = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort((a, b) => a.localeCompare(b))
    .map((name) => {
      const file = path.join(baseDir, name, 'migration.sql');
      let content: { tag: 'ok'; value: string } | { tag: 'error'; value: string };
      try {
        content = { tag: 'ok', value: fs.readFileSync(file, 'utf8') };
      } catch (e) {
        content = { tag: 'error', value: (e as Error).message };
      }
      return { path: name, migrationFile: { path: 'migration.sql', content } };
    });
  return {
    baseDir,
    lockfile: { path: 'migration_lock.toml', content: fs.existsSync(lockPath) ? fs.readFileSync(lockPath, 'utf8') : null },
    shadowDbInitScript: '',
    migrationDirectories,
  };
}

/** The engine logs JSON lines (an applied script included): keep the message. */
function engineMessage(line: string): string {
  try {
    const { level, fields } = JSON.parse(line) as { level?: string; fields?: { message?: string; sql?: string } };
    return `${level ?? ''} ${fields?.message ?? fields?.sql ?? line}`.trim();
  } catch {
    return line.trim();
  }
}

/** Runs `fn` with an engine connected to `databaseUrl`, then frees both. */
async function withEngine<T>(kind: DatabaseKind, databaseUrl: string | undefined, log: Log | undefined, fn: (engine: SchemaEngine) => Promise<T>): Promise<T> {
  const loading = loadEngine(); // compiles off the main thread while the adapter loads
  const adapter = adapterFor(kind, databaseUrl);
  const { bindMigrationAwareSqlAdapterFactory } = load<typeof import('@prisma/driver-adapter-utils')>('@prisma/driver-adapter-utils');
  const bound = bindMigrationAwareSqlAdapterFactory(adapter.factory);
  const datamodels = schemaFiles(kind).map((f): [string, string] => [f.path, f.content]);
  let engine: SchemaEngine | undefined;
  try {
    const mod = await loading;
    engine = await mod.SchemaEngine.new({ datamodels }, (line: string) => log?.(`engine: ${engineMessage(line)}`), bound);
    return await fn(engine);
  } catch (e) {
    // A plain JS error inside the adapter (e.g. ECONNREFUSED) reaches us as
    // "External error id#N"; the bound factory kept the original.
    const id = /External error id#(\d+)/.exec(e instanceof Error ? e.message : '')?.[1];
    throw (id && bound.errorRegistry.consumeError(Number(id))?.error) || e;
  } finally {
    engine?.free();
    await adapter.close();
  }
}

/**
 * Applies every pending migration of the database's kind and returns their
 * names (empty when up to date). Creates a SQLite file's folder if missing.
 */
export async function migrate(databaseUrl: string, opts: { log?: Log } = {}): Promise<{ applied: string[] }> {
  const kind = databaseKind(databaseUrl);
  const started = performance.now();
  // Fast path: when every migration is already recorded, skip the engine. It
  // is slow to load, and on SQLite it locks the file exclusively, which
  // would fail while a running server holds the database (e.g. a CLI command).
  if ((await pendingMigrations(kind, databaseUrl)).length === 0) {
    opts.log?.(`migrate: up to date (${Math.round(performance.now() - started)} ms)`);
    return { applied: [] };
  }
  try {
    const { appliedMigrationNames } = await withEngine(kind, databaseUrl, opts.log, (engine) =>
      engine.applyMigrations({ migrationsList: migrationsList(kind), filters: NO_FILTERS }),
    );
    opts.log?.(`migrate: ${appliedMigrationNames.length} applied in ${Math.round(performance.now() - started)} ms`);
    return { applied: appliedMigrationNames };
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    if (kind === 'sqlite' && sqliteInUse(message)) {
      throw new Error(
        `Migrating ${redact(databaseUrl)} failed: the database is in use by another connection (SQLITE_BUSY), and the schema engine ` +
          'needs the file to itself. Stop whatever has it open (a running Gatehouse server, a CLI command, a backup), then run ' +
          '`npm run db:migrate` (or start the server again, which migrates first). Nothing was applied.',
        { cause: e },
      );
    }
    // The engine waits 10 s for the lock, then reports only a timeout.
    const hint = kind === 'postgresql' && /timed out/i.test(message) ? ' (is another migrate holding pg_advisory_lock(72707369)?)' : '';
    throw new Error(`Migrating ${redact(databaseUrl)} failed: ${message}${hint}`, { cause: e });
  }
}

/**
 * The engine takes a SQLite file in exclusive locking mode: while another
 * connection has it open, better-sqlite3 reports SQLITE_BUSY, which the
 * driver adapter passes on as a `SocketTimeout` that the Wasm engine cannot
 * even decode ("unknown variant `SocketTimeout`").
 */
function sqliteInUse(message: string): boolean {
  return /SocketTimeout|SQLITE_BUSY|database is locked/i.test(message);
}

/** Migration folders not yet recorded as finished in _prisma_migrations (all of them when the table is missing). */
async function pendingMigrations(kind: DatabaseKind, databaseUrl: string): Promise<string[]> {
  if (kind === 'sqlite' && !fs.existsSync(sqlitePath(databaseUrl))) return migrationNames(kind);
  const sql = openSql(databaseUrl);
  try {
    return await unappliedMigrations(sql);
  } catch {
    return migrationNames(kind); // no _prisma_migrations yet (or no schema): let the engine create everything
  } finally {
    await sql.close();
  }
}

/**
 * The migration folders of the database's kind that _prisma_migrations does not
 * record as finished, read through an open handle (the server's readiness,
 * lib/ops/health.ts). Throws when the table cannot be read.
 */
export async function unappliedMigrations(sql: Sql): Promise<string[]> {
  const rows = await sql.all<{ migration_name: string }>(
    'SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
  );
  const done = new Set(rows.map((row) => row.migration_name));
  return migrationNames(sql.kind).filter((name) => !done.has(name));
}

function migrationNames(kind: DatabaseKind): string[] {
  const dir = path.join(prismaDir(kind), 'migrations');
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && fs.existsSync(path.join(dir, entry.name, 'migration.sql')))
    .map((entry) => entry.name);
}

/** The URL without its password, for messages. */
function redact(databaseUrl: string): string {
  if (databaseKind(databaseUrl) === 'sqlite') return databaseUrl;
  const url = new URL(databaseUrl);
  if (url.password) url.password = '***';
  return url.toString();
}

/**
 * SQL that takes an empty database (or, given a URL, that database as it is
 * now) to prisma/<kind>'s datamodel: the body of a new migration, or '' when
 * there is nothing to change. From empty, no server is needed for either kind.
 */
export async function diffSchemaSql(kind: DatabaseKind, fromDatabaseUrl?: string): Promise<string> {
  if (fromDatabaseUrl && databaseKind(fromDatabaseUrl) !== kind) throw new Error(`diffSchemaSql('${kind}') was given a ${databaseKind(fromDatabaseUrl)} URL`);
  const files = schemaFiles(kind);
  const { stdout } = await withEngine(kind, fromDatabaseUrl, undefined, (engine) =>
    engine.diff({
      from: fromDatabaseUrl ? { tag: 'schemaDatasource', files, configDir: prismaDir(kind) } : { tag: 'empty' },
      to: { tag: 'schemaDatamodel', files },
      script: true,
      exitCode: null,
      filters: NO_FILTERS,
    }),
  );
  // From `empty` the engine also emits CREATE SCHEMA "public", which `migrate
  // dev` never writes (it diffs from a real database) and which needs CREATE
  // on the database even when public exists: leave the schema to the URL.
  const sql = (stdout ?? '').replace('-- CreateSchema\nCREATE SCHEMA IF NOT EXISTS "public";\n\n', '');
  // "-- This is an empty migration." and the like: nothing to do.
  return sql.replace(/^--.*$/gm, '').trim() ? sql : '';
}
