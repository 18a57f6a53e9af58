/**
 * Who may read the SQLite database on the host: its owner only. The files hold
 * every account, sealed secret and session, so the database and its -wal and
 * -shm files are 0600 and a data folder of its own 0700, like the key file
 * beside them (lib/db/keyring.ts). Made so before SQLite first opens the file
 * (SQLite gives -wal and -shm the database file's mode), whatever the umask:
 * a mode given at creation is narrowed by the umask, so every mode is also set
 * with chmod afterwards. An installation from before is tightened at its next
 * start; the caller logs what was.
 */
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname } from 'node:path';

const FILE_MODE = 0o600;
const FOLDER_MODE = 0o700;
/** The files SQLite keeps beside the database. */
const COMPANIONS = ['-wal', '-shm', '-journal'];

/**
 * Creates the folder and an empty database file (an empty file is an empty
 * SQLite database) owner-only, or narrows existing ones. The folder is changed
 * only when it holds nothing but this database's files (a folder of its own, as
 * `data/` is): a database put in a shared folder leaves that folder's mode alone.
 * Returns the paths whose mode was narrowed.
 */
export function secureSqliteFiles(path: string): string[] {
  const tightened: string[] = [];
  const folder = dirname(path);
  if (!existsSync(folder)) {
    mkdirSync(folder, { recursive: true, mode: FOLDER_MODE });
    chmodSync(folder, FOLDER_MODE);
  } else if (ownFolder(folder, basename(path)) && narrow(folder, FOLDER_MODE)) {
    tightened.push(folder);
  }
  if (!existsSync(path)) {
    closeSync(openSync(path, 'a', FILE_MODE));
    chmodSync(path, FILE_MODE);
  } else if (narrow(path, FILE_MODE)) {
    tightened.push(path);
  }
  for (const companion of COMPANIONS.map((suffix) => `${path}${suffix}`)) {
    if (existsSync(companion) && narrow(companion, FILE_MODE)) tightened.push(companion);
  }
  return tightened;
}

/** Whether every entry of `folder` is the database's own (`gatehouse.db`, `gatehouse.db-wal`, `gatehouse.db.key`, …). */
function ownFolder(folder: string, file: string): boolean {
  return readdirSync(folder).every((entry) => entry.startsWith(file));
}

/** Takes away every permission beyond `mode`; true when there was one. */
function narrow(path: string, mode: number): boolean {
  const current = statSync(path).mode & 0o777;
  if ((current & ~mode) === 0) return false;
  chmodSync(path, current & mode);
  return true;
}
