/**
 * Fresh, migrated databases for unit tests that need storage: SQLite always,
 * PostgreSQL (a schema of its own, dropped afterwards) when TEST_DATABASE_URL
 * is set. Not a test file itself; imported by *.test.ts.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import pg from 'pg';
import { closeDatabase, database, type Database } from './database.ts';
import { migrate } from './migrate.ts';

export interface TestDatabase {
  name: 'SQLite' | 'PostgreSQL';
  /** Undefined when the database is not available (PostgreSQL without TEST_DATABASE_URL): skip it. */
  url?: string;
  /** Migrates on first use and returns the handle. */
  open(): Promise<Database>;
}

/** Registers cleanup with node:test's `after`; call once per test file. */
export function testDatabases(prefix: string): TestDatabase[] {
  const dir = mkdtempSync(join(tmpdir(), `gatehouse-${prefix}-`));
  const pgBase = process.env.TEST_DATABASE_URL;
  const schema = `gh_${prefix.replace(/\W/g, '_')}_${randomBytes(4).toString('hex')}`;
  const urls = {
    SQLite: `file:${join(dir, `${prefix}.db`)}`,
    PostgreSQL: pgBase ? `${pgBase}${pgBase.includes('?') ? '&' : '?'}schema=${schema}` : undefined,
  };
  const migrated = new Map<string, Promise<unknown>>();
  const open = async (url: string) => {
    if (!migrated.has(url)) migrated.set(url, migrate(url));
    await migrated.get(url);
    return database(url);
  };
  after(async () => {
    for (const url of Object.values(urls)) if (url) await closeDatabase(url);
    rmSync(dir, { recursive: true, force: true });
    if (pgBase) {
      const client = new pg.Client({ connectionString: pgBase });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
    }
  });
  return (['SQLite', 'PostgreSQL'] as const).map((name) => ({ name, url: urls[name], open: () => open(urls[name]!) }));
}

/** A trigger that aborts inserts into `table` where `when` holds: a write failing inside a transaction, in either database. */
export async function refuseInserts(db: Database, name: string, table: string, when: string) {
  if (db.sql.kind === 'sqlite') {
    await db.sql.run(`CREATE TRIGGER refuse_${name} BEFORE INSERT ON ${table} WHEN ${when} BEGIN SELECT RAISE(ABORT, 'refused'); END`);
    return;
  }
  await db.sql.run(`CREATE FUNCTION refuse_${name}() RETURNS trigger AS $body$ BEGIN RAISE EXCEPTION 'refused'; END $body$ LANGUAGE plpgsql`);
  await db.sql.run(`CREATE TRIGGER refuse_${name} BEFORE INSERT ON ${table} FOR EACH ROW WHEN (${when}) EXECUTE FUNCTION refuse_${name}()`);
}

/** Removes what refuseInserts made. */
export async function dropRefusal(db: Database, name: string, table: string) {
  await db.sql.run(db.sql.kind === 'sqlite' ? `DROP TRIGGER refuse_${name}` : `DROP TRIGGER refuse_${name} ON ${table}`);
}
