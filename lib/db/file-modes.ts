/**
 * Who may read the SQLite database on the host: its owner only. The files hold
 * every account, sealed secret and session, so the database and its -wal and
 * -shm files are 0600 and a data folder of its own 0700, like the key file
 * beside them (lib/db/keyring.ts). Made so before SQLite first opens the file
 * (SQLite gives -wal and -shm the database file's mode), whatever the umask:
 * a mode given at creation is narrowed by the umask, so every mode is also set
 * with chmod afterwards. An installation from before is narrowed at its next
 * start; the caller logs what was, and what could not be (a file this user
 * does not own: its owner must change it; the server starts all the same).
 */
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname } from 'node:path';

const FILE_MODE = 0o600;
const FOLDER_MODE = 0o700;
/** The files SQLite keeps beside the database. */
const COMPANIONS = ['-wal', '-shm', '-journal'];

/** What secureSqliteFiles changed (`narrowed`), and what it found too open but may not change (`refused`). */
export interface ModeReport {
  narrowed: string[];
  refused: string[];
}

/**
 * Creates the folder and an empty database file (an empty file is an empty
 * SQLite database) owner-only, or narrows existing ones. The folder is changed
 * only when it holds nothing but this database's files (a folder of its own, as
 * `data/` is): a database put in a shared folder leaves that folder's mode alone.
 */
export function secureSqliteFiles(path: string): ModeReport {
  const report: ModeReport = { narrowed: [], refused: [] };
  const folder = dirname(path);
  if (!existsSync(folder)) {
    mkdirSync(folder, { recursive: true, mode: FOLDER_MODE });
    chmodSync(folder, FOLDER_MODE);
  } else if (ownFolder(folder, basename(path))) {
    narrow(folder, FOLDER_MODE, report);
  }
  if (!existsSync(path)) {
    closeSync(openSync(path, 'a', FILE_MODE));
    chmodSync(path, FILE_MODE);
  } else {
    narrow(path, FILE_MODE, report);
  }
  for (const companion of COMPANIONS.map((suffix) => `${path}${suffix}`)) {
    // A runtime path, nothing for Next's build to trace: unmarked, Turbopack traced the whole project into the build.
    if (existsSync(/* turbopackIgnore: true */ companion)) narrow(companion, FILE_MODE, report);
  }
  return report;
}

/** Whether every entry of `folder` is the database's own (`gatehouse.db`, `gatehouse.db-wal`, `gatehouse.db.key`, …). */
function ownFolder(folder: string, file: string): boolean {
  return readdirSync(folder).every((entry) => entry.startsWith(file));
}

/** Takes away every permission beyond `mode`, noting it in `report`; only the file's owner may (EPERM otherwise). */
function narrow(path: string, mode: number, report: ModeReport): void {
  const current = statSync(path).mode & 0o777;
  if ((current & ~mode) === 0) return;
  try {
    chmodSync(path, current & mode);
    report.narrowed.push(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') throw error;
    report.refused.push(path);
  }
}

/**
 * What the start says about a report (one warning per kind), for whichever connection opens the file first: the
 * start's own checks (lib/db/start-checks.ts) or the server's handle. `log` is asked only when there is something to say.
 */
export function warnAboutModes(log: () => { warn(fields: object, message: string): void }): (report: ModeReport) => void {
  return ({ narrowed, refused }) => {
    if (narrowed.length) log().warn({ paths: narrowed }, 'the database files were readable by others: narrowed to the owner (0600 files, 0700 folder)');
    if (refused.length)
      log().warn(
        { paths: refused },
        'the database files are readable by others and owned by another user: their owner should chmod them (0600 files, 0700 folder)',
      );
  };
}
