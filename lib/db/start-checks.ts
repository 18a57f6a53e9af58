/**
 * What a start (the server's, or a CLI command's) checks before its first
 * migration: a start refused for a setting must change nothing, or one
 * mis-deployed instance of a rolling upgrade migrates the schema under the
 * others and then exits. Reads through a connection of its own, closed before
 * the schema engine runs (it needs a SQLite file to itself).
 *
 * The keys: PostgreSQL needs SECRETS_KEY; and every value the database holds
 * sealed (lib/db/keyring.ts) must be under a key the start has: SECRETS_KEY's,
 * or on SQLite the key file beside the database. A key file that is missing
 * while the database holds values sealed under it is never replaced by a new
 * one: a new key would open none of them, and the old one is in the backup.
 */
import fs from 'node:fs';
import { keyFilePath, keyId, readKeyFile } from './keyring.ts';
import type { ModeReport } from './file-modes.ts';
import { openSql, type Sql } from './sql.ts';

/** A start refused before it changed anything: the message says what to set or restore. */
export class StartRefused extends Error {
  override name = 'StartRefused';
}

/** Each sealed column (lib/db/secrets.ts, `sealedColumns`): the table, and the column holding the sealed value. */
export const SEALED_COLUMNS: Readonly<Record<string, string>> = {
  signing_keys: 'private_jwk',
  server_secrets: 'value',
  user_factors: 'secret',
  connections: 'client_secret',
  federated_identities: 'upstream_tokens',
  webhook_endpoints: 'secret',
};

const NEW_KEY = '`openssl rand -base64 32`';
const PRINT_IDS = '`npm run gatehouse -- keys secrets-id [<key file>]` prints the ids of the configured keys and of a key file';

/** Throws StartRefused when the keys configured for `databaseUrl` cannot open what it holds, or PostgreSQL has none. */
export async function checkSecretsKeys(
  databaseUrl: string,
  configured: readonly Buffer[],
  { onOpenModes }: { onOpenModes?: (report: ModeReport) => void } = {},
): Promise<void> {
  const sqliteFile = databaseUrl.startsWith('file:') ? databaseUrl.slice('file:'.length) : undefined;
  // A SQLite file that does not exist yet holds nothing: do not create it here.
  const sealed =
    sqliteFile !== undefined && !fs.existsSync(sqliteFile) ? new Map<string, string>() : await sealedKeyIds(openSql(databaseUrl, undefined, { onOpenModes }));
  const ids = (keys: readonly Buffer[]) => keys.map(keyId).join(', ');
  const needed = [...new Set(sealed.keys())].join(', ');
  if (sqliteFile === undefined) {
    if (configured.length === 0) {
      throw new StartRefused(
        'SECRETS_KEY is required with PostgreSQL: every instance must encrypt and decrypt with the same key. ' +
          (sealed.size > 0
            ? `This database holds values encrypted under key ${needed}: set SECRETS_KEY to that key (the one its other instances use). ${PRINT_IDS}.`
            : `Set it to a new key (${NEW_KEY}) shared by every instance.`) +
          ' Nothing was changed: no migration ran.',
      );
    }
  }
  const keyFile = sqliteFile === undefined ? undefined : keyFilePath(sqliteFile);
  const fromFile = keyFile === undefined ? undefined : readKeyFile(keyFile);
  const have = new Set([...configured, ...(fromFile ? [fromFile] : [])].map(keyId));
  const missing = [...sealed].filter(([id]) => !have.has(id));
  if (missing.length === 0) return;
  const missingIds = missing.map(([id]) => id).join(', ');
  if (keyFile !== undefined && !fromFile && configured.length === 0) {
    throw new StartRefused(
      `${sqliteFile} holds values encrypted under key ${missingIds} (${missing.map(([, table]) => table).join(', ')}), and its key file is missing: ` +
        `restore \`${keyFile}\` from your backup (the one taken with this database; its id must be ${missingIds}), or set SECRETS_KEY to that key, ` +
        `then start again. ${PRINT_IDS}. Nothing was changed, and no new key file was created: a new key would open none of these values.`,
    );
  }
  const [id, table] = missing[0];
  const sources = [configured.length ? `SECRETS_KEY's keys (${ids(configured)})` : '', fromFile ? `the key file ${keyFile} (${keyId(fromFile)})` : '']
    .filter(Boolean)
    .join(' or ');
  throw new StartRefused(
    `cannot re-encrypt ${table}: it holds values encrypted under key ${id}, which is not among SECRETS_KEY's keys (or the key file's): ` +
      `the start has ${sources}. Add the key with id ${missingIds} to SECRETS_KEY, after the first, ` +
      (keyFile !== undefined && !fromFile ? `or restore \`${keyFile}\` from your backup if it was that key, ` : '') +
      `and start again. ${PRINT_IDS}. ` +
      'Nothing was changed: no migration ran.',
  );
}

/** The key ids the sealed values name, each with the first table naming it. Tables an older schema lacks hold nothing. */
async function sealedKeyIds(sql: Sql): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  try {
    for (const [table, column] of Object.entries(SEALED_COLUMNS)) {
      // `v1.<16 hex digits of key id>.<iv>.<ciphertext>` (lib/db/keyring.ts); clear values are not sealed yet.
      const rows = await sql
        .all<{ id: string }>(`SELECT DISTINCT substr(${column}, 4, 16) AS id FROM ${table} WHERE ${column} LIKE 'v1.%'`)
        .catch((error: unknown) => {
          if (missingTable(error)) return [];
          throw error;
        });
      for (const { id } of rows) if (!found.has(id)) found.set(id, table);
    }
  } finally {
    await sql.close();
  }
  return found;
}

/** SQLite's "no such table", PostgreSQL's undefined_table (a schema not migrated yet, or not there at all). */
function missingTable(error: unknown): boolean {
  const { code, message } = error as { code?: string; message?: string };
  return code === '42P01' || /no such table/.test(message ?? '');
}
