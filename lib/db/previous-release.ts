/**
 * For upgrade tests: a database as the previous release left it, made by
 * every migration of its kind but the newest (migrate() reads the working
 * directory's prisma/<kind>, so they run from a project folder of their own,
 * as lib/db/username-key.test.ts makes one). Not a test file; never imported by the app.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { databaseKind } from '../config/env.ts';
import { migrate, prismaDir } from './migrate.ts';

/** Every migration folder of the kind, oldest first. */
export function migrationFolders(kind: 'sqlite' | 'postgresql'): string[] {
  const dir = path.join(prismaDir(kind), 'migrations');
  return fs
    .readdirSync(dir)
    .filter((name) => fs.statSync(path.join(dir, name)).isDirectory())
    .sort();
}

/** Migrates `url` up to, not including, the newest migration; returns that newest one's name. */
export async function migrateAsPreviousRelease(url: string): Promise<{ newest: string }> {
  const kind = databaseKind(url);
  const root = process.cwd();
  const all = migrationFolders(kind);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-previous-release-'));
  try {
    fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'));
    fs.copyFileSync(path.join(root, 'package.json'), path.join(dir, 'package.json'));
    const from = prismaDir(kind);
    const to = path.join(dir, 'prisma', kind);
    fs.mkdirSync(path.join(to, 'migrations'), { recursive: true });
    for (const file of fs.readdirSync(from).filter((f) => f.endsWith('.prisma'))) fs.copyFileSync(path.join(from, file), path.join(to, file));
    fs.copyFileSync(path.join(from, 'migrations', 'migration_lock.toml'), path.join(to, 'migrations', 'migration_lock.toml'));
    for (const name of all.slice(0, -1)) fs.cpSync(path.join(from, 'migrations', name), path.join(to, 'migrations', name), { recursive: true });
    process.chdir(dir);
    try {
      const { applied } = await migrate(url);
      assert.deepEqual(applied, all.slice(0, -1), 'the previous release applied every migration but the newest');
    } finally {
      process.chdir(root);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return { newest: all.at(-1)! };
}
