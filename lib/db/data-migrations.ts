/**
 * Data migrations: rewrites of stored data that SQL alone cannot express on
 * both databases (SQLite has no SHA-256), run in code once per database, in
 * order, after the schema migrations. `data_migrations` records each one that
 * finished; one interrupted runs again from the start, so each must be safe to
 * repeat. Append new ones at the end; never rename or reorder them.
 */
import { hashStoredCredentials } from './artifacts.ts';
import type { Database } from './database.ts';

const dataMigrations: ReadonlyArray<{ name: string; run(db: Database): Promise<unknown> }> = [
  { name: '20261123_hash_stored_credentials', run: (db) => hashStoredCredentials(db.sql) },
];

/** Runs what this database has not run yet; returns their names. */
export async function runDataMigrations(db: Database): Promise<string[]> {
  const done = new Set((await db.sql.all<{ name: string }>('SELECT name FROM data_migrations')).map((row) => row.name));
  const ran: string[] = [];
  for (const migration of dataMigrations) {
    if (done.has(migration.name)) continue;
    await migration.run(db);
    // Two instances starting together may both run one: each is safe to repeat, and the second insert is a no-op.
    await db.sql.run('INSERT INTO data_migrations (name) VALUES (?) ON CONFLICT (name) DO NOTHING', [migration.name]);
    ran.push(migration.name);
  }
  return ran;
}
