/**
 * Importing people (the CLI's `gatehouse user import`, the admin API's POST /api/admin/users/import):
 * records from lib/users/import-format.ts, one person each, checked, then written a batch at a
 * time in one transaction each, so a crash leaves every batch either written or not at all.
 *
 * A person is known by `external_id`, their id in the system they come from: importing a file
 * again updates the people it names (a field left out of the file stays as it is) and never makes
 * a second account. Everyone imported has no admin role. `groups` name groups that exist: the
 * person joins them (an import never takes anyone out of a group); a line naming a group that does
 * not exist is refused, so a misspelt name makes no group nobody meant. A password hash is stored
 * as it came (lib/users/import-hashes.ts), not verified; the first sign-in verifies it and hashes
 * the password again with argon2id. An import replaces a person's password hash only while it is
 * still one an import brought: a password they set or signed in with here stays.
 *
 * A line that cannot be imported is refused with its line number and why, and the others go on;
 * a batch that fails to write (someone took a username meanwhile) is written again line by line,
 * so only the offending line is refused.
 *
 * Each change is recorded as the portal records it (`user.created`, `user.updated`, `user.disabled`,
 * `group.member_added`, ...), in the batch's own transaction with the webhook deliveries those entries raise
 * (lib/audit/log.ts writeAudited): a batch written has announced its people, one rolled back has announced
 * nobody. One more entry sums the run up (`users.imported`).
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { destroyArtifactsOfAccount } from '../account/repository.ts';
import { mayActOn, toRole } from '../admin-roles/roles.ts';
import { recordAuditBy, writeAudited, type AuditBy, type AuditEvent } from '../audit/log.ts';
import { dateTimeValue } from '../audit/repository.ts';
import { principalNameSchema } from '../authorization/manage.ts';
import { forgetAccessOf } from '../authorization/repository.ts';
import { deleteConsentsOf } from '../consents/repository.ts';
import type { Database } from '../db/database.ts';
import { insertRows, isDriverUniqueViolation, type SqlValue, type Statement } from '../db/sql.ts';
import { issueMessages } from '../platform/errors.ts';
import type { ImportRecord } from './import-format.ts';
import { importedPasswordHash } from './import-hashes.ts';
import { usernameSchema } from './manage.ts';
import { accountCacheKey, usernameKey } from './repository.ts';

/** People written per transaction: large enough that 100,000 take minutes, small enough that a lock is brief. */
export const IMPORT_BATCH = 500;
/** Refused lines listed in a report; the count beyond this is still exact. */
export const REJECTED_LISTED = 1000;

const toBoolean = z.union([
  z.boolean(),
  z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.enum(['true', 'false', '1', '0', 'yes', 'no', '']))
    .transform((v) => v === 'true' || v === '1' || v === 'yes'),
]);
const emptyIsNull = (schema: z.ZodType<string, string>) =>
  z
    .string()
    .trim()
    .transform((v) => v || null)
    .pipe(schema.nullable())
    .nullable();

/** What an export line holds beside what an import reads: read and left aside, so an export imports again. */
const exportOnly = {
  id: z.unknown().optional(),
  role: z.unknown().optional(),
  has_password: z.unknown().optional(),
  created_at: z.unknown().optional(),
  updated_at: z.unknown().optional(),
};

/**
 * One person as a line gives them; a field left out is undefined (left as it is on an update).
 * Without an external_id, an exported line's `id` (another Gatehouse's) stands for it.
 */
const lineSchema = z.strictObject({
  ...exportOnly,
  external_id: z
    .union([z.string(), z.number().int()])
    .transform(String)
    .pipe(z.string().trim().min(1, 'external_id is required').max(200, 'external_id is at most 200 characters')),
  username: usernameSchema,
  email: emptyIsNull(z.email('not a valid email address').max(254)).optional(),
  email_verified: toBoolean.optional(),
  name: emptyIsNull(z.string().max(128, 'name is at most 128 characters')).optional(),
  disabled: toBoolean.optional(),
  groups: z
    .union([z.array(z.string()), z.string().transform((text) => text.split(/[;\s]+/).filter(Boolean))])
    .pipe(z.array(principalNameSchema).max(100, 'at most 100 groups'))
    .optional(),
  password_hash: z.string().max(1024).optional(),
  password_salt: z.string().max(1024).optional(),
  password_iterations: z.union([z.string().max(12), z.number()]).optional(),
  password_algorithm: z.string().max(40).optional(),
  /** Keycloak's own credentials array, as a realm export has it (JSON lines only). */
  credentials: z.unknown().optional(),
});
export const importLineSchema = z.preprocess((fields) => {
  const { external_id, id } = fields as Record<string, unknown>;
  return (external_id === undefined || external_id === '' || external_id === null) && typeof id === 'string' && id
    ? { ...(fields as object), external_id: id }
    : fields;
}, lineSchema);
export const IMPORT_FIELDS = Object.keys(lineSchema.shape).filter((name) => !Object.hasOwn(exportOnly, name));

type Line = z.output<typeof importLineSchema>;
interface Checked {
  line: number;
  data: Line;
  /** The hash to store, or null: the line has none. */
  hash: string | null;
}

export interface ImportOptions {
  /** Check every line against the database and report, writing nothing. */
  dryRun?: boolean;
  batchSize?: number;
  /** After each batch: the lines read so far and what became of them. */
  onProgress?: (counts: ImportCounts) => void;
}

export interface ImportCounts {
  lines: number;
  created: number;
  updated: number;
  unchanged: number;
  rejected: number;
}

export interface ImportReport extends ImportCounts {
  dryRun: boolean;
  /** The first REJECTED_LISTED refused lines, in file order. */
  rejectedLines: Array<{ line: number; reason: string }>;
}

function describe(error: z.ZodError): string {
  return issueMessages(error)
    .slice(0, 5)
    .map(([field, message]) => (field ? `${field}: ${message}` : message))
    .join('; ');
}

/** Imports every record; resolves with what became of each line. */
export async function importUsers(db: Database, records: AsyncIterable<ImportRecord>, by?: AuditBy, options: ImportOptions = {}): Promise<ImportReport> {
  const report: ImportReport = { dryRun: Boolean(options.dryRun), lines: 0, created: 0, updated: 0, unchanged: 0, rejected: 0, rejectedLines: [] };
  const reject = (line: number, reason: string) => {
    report.rejected++;
    if (report.rejectedLines.length < REJECTED_LISTED) report.rejectedLines.push({ line, reason });
  };
  // Within the run, each external id, username and address belongs to one line: a dry run writes nothing, so the database cannot say.
  const seen = { external: new Map<string, number>(), username: new Map<string, number>(), email: new Map<string, number>() };
  const claim = (map: Map<string, number>, key: string | null | undefined, line: number) => {
    if (!key) return undefined;
    const earlier = map.get(key);
    if (earlier === undefined) map.set(key, line);
    return earlier;
  };
  const size = options.batchSize ?? IMPORT_BATCH;
  let batch: Checked[] = [];
  const flush = async () => {
    if (batch.length) await writeBatch(db, batch, report, reject, report.dryRun, by);
    batch = [];
    options.onProgress?.({ lines: report.lines, created: report.created, updated: report.updated, unchanged: report.unchanged, rejected: report.rejected });
  };
  for await (const record of records) {
    report.lines++;
    if ('problem' in record) {
      reject(record.line, record.problem);
      continue;
    }
    const parsed = importLineSchema.safeParse(record.fields);
    if (!parsed.success) {
      reject(record.line, describe(parsed.error));
      continue;
    }
    const data = parsed.data;
    const hash = importedPasswordHash(data);
    if ('problem' in hash) {
      reject(record.line, hash.problem);
      continue;
    }
    const twice = (
      [
        ['external_id', claim(seen.external, data.external_id, record.line)],
        ['username', claim(seen.username, usernameKey(data.username), record.line)],
        ['email', claim(seen.email, data.email?.toLowerCase(), record.line)],
      ] as const
    ).find(([, earlier]) => earlier !== undefined);
    if (twice) {
      reject(record.line, `the same ${twice[0]} as line ${twice[1]}`);
      continue;
    }
    batch.push({ line: record.line, data, hash: hash.hash });
    if (batch.length >= size) await flush();
  }
  await flush();
  report.rejectedLines.sort((a, b) => a.line - b.line);
  if (!report.dryRun) {
    await recordAuditBy(db, by, {
      action: 'users.imported',
      details: { lines: report.lines, created: report.created, updated: report.updated, unchanged: report.unchanged, rejected: report.rejected },
    });
  }
  return report;
}

type ExistingRow = {
  id: string;
  external_id: string | null;
  username: string;
  username_key: string;
  email: string | null;
  email_verified: boolean | number;
  name: string | null;
  disabled: boolean | number;
  role: string;
  password_hash: string | null;
  password_imported: boolean | number;
};

/** What an import records of each person it writes. */
type AuditedImport = Omit<AuditEvent, 'actor' | 'context'>;

const marks = (n: number) => Array.from({ length: n }, () => '?').join(', ');

async function rowsWhereIn<T extends Record<string, unknown>>(db: Database, select: string, column: string, values: string[]): Promise<T[]> {
  const unique = [...new Set(values)];
  if (!unique.length) return [];
  return db.sql.all<T>(`${select} WHERE ${column} IN (${marks(unique.length)})`, unique);
}

/** Checks a batch against the database and writes it in one transaction (or only checks it: a dry run). */
async function writeBatch(
  db: Database,
  batch: Checked[],
  report: ImportCounts,
  refuse: (line: number, reason: string) => void,
  dryRun: boolean,
  by: AuditBy | undefined,
): Promise<void> {
  // Told only once the batch is settled: a batch written again line by line refuses each line once.
  const refused: Array<[number, string]> = [];
  const reject = (line: number, reason: string) => void refused.push([line, reason]);
  const columns =
    'SELECT u.id, i.external_id, u.username, u.username_key, u.email, u.email_verified, u.name, u.disabled, u.role, u.password_hash, i.password_imported ' +
    'FROM user_imports i JOIN users u ON u.id = i.user_id';
  const [byExternal, byOwnId, byKey, byEmail, groups] = await Promise.all([
    rowsWhereIn<ExistingRow>(
      db,
      columns,
      'i.external_id',
      batch.map((c) => c.data.external_id),
    ),
    // A line of this Gatehouse's own export names a person who never came from an import by their id here (the
    // external id it stands for): that person, so the export imports again changing nothing. Their own id only,
    // never an address or a name; and they stay without an import record, as they came.
    rowsWhereIn<ExistingRow & { imported_as: string | null }>(
      db,
      'SELECT u.id, NULL AS external_id, u.username, u.username_key, u.email, u.email_verified, u.name, u.disabled, u.role, u.password_hash, ' +
        '0 AS password_imported, i.external_id AS imported_as FROM users u LEFT JOIN user_imports i ON i.user_id = u.id',
      'u.id',
      batch.flatMap((c) => (c.data.id === c.data.external_id ? [c.data.external_id] : [])),
    ).then((rows) => rows.filter((row) => row.imported_as === null)),
    rowsWhereIn<{ id: string; username_key: string }>(
      db,
      'SELECT id, username_key FROM users',
      'username_key',
      batch.map((c) => usernameKey(c.data.username)),
    ),
    rowsWhereIn<{ id: string; address: string }>(
      db,
      'SELECT id, lower(email) AS address FROM users',
      'lower(email)',
      batch.flatMap((c) => (c.data.email ? [c.data.email.toLowerCase()] : [])),
    ),
    rowsWhereIn<{ id: string; name: string }>(
      db,
      'SELECT id, name FROM groups',
      'name',
      batch.flatMap((c) => c.data.groups ?? []),
    ),
  ]);
  const existing = new Map([...byOwnId.map((row) => [row.id, row] as const), ...byExternal.map((row) => [row.external_id!, row] as const)]);
  const keyHolder = new Map(byKey.map((row) => [row.username_key, row.id]));
  const emailHolder = new Map(byEmail.map((row) => [row.address, row.id]));
  const groupIds = new Map(groups.map((row) => [row.name, row.id]));
  const members = await rowsWhereIn<{ group_id: string; user_id: string }>(
    db,
    'SELECT group_id, user_id FROM group_members',
    'user_id',
    byExternal.map((row) => row.id),
  );
  const memberships = new Set(members.map((m) => `${m.group_id} ${m.user_id}`));

  const groupNames = new Map(groups.map((row) => [row.id, row.name]));
  const now = dateTimeValue(db.sql.kind, new Date());
  // The columns an import fills; the profile claims of lib/users/profile-claims.ts keep their defaults.
  const creates: SqlValue[][] = [];
  const imports: SqlValue[][] = [];
  const writes: Statement[] = [];
  const joins: Array<{ groupId: string; userId: string; username: string }> = [];
  const changedIds: string[] = [];
  const disabling: string[] = [];
  const events: AuditedImport[] = [];
  const outcome: Array<{ line: number; kind: 'created' | 'updated' | 'unchanged' }> = [];

  for (const { line, data, hash } of batch) {
    const current = existing.get(data.external_id);
    const key = usernameKey(data.username);
    const holder = keyHolder.get(key);
    if (holder && holder !== current?.id) {
      reject(line, `the username ${data.username} is another account's`);
      continue;
    }
    const address = data.email?.toLowerCase();
    const emailOwner = address ? emailHolder.get(address) : undefined;
    if (emailOwner && emailOwner !== current?.id) {
      reject(line, `the email ${data.email} is another account's`);
      continue;
    }
    const unknown = (data.groups ?? []).filter((name) => !groupIds.has(name));
    if (unknown.length) {
      reject(line, `no group named ${unknown.join(', ')} (create it first: gatehouse group create)`);
      continue;
    }
    // As on a person's page: an admin's account only those whose role may act on theirs (the CLI may).
    const callerRole = by?.actor?.role;
    if (current && callerRole && !mayActOn(callerRole, toRole(current.role))) {
      reject(line, `${current.username} has the ${current.role} role: your admin role may not change their account`);
      continue;
    }
    if (current?.role === 'owner' && data.disabled && !current.disabled) {
      reject(line, `${current.username} is an owner: an import does not disable owners`);
      continue;
    }
    const id = current?.id ?? randomUUID();
    const person = { type: 'user' as const, id, label: data.username };
    const joined = (data.groups ?? []).flatMap((name) => {
      const groupId = groupIds.get(name)!;
      return memberships.has(`${groupId} ${id}`) ? [] : [{ groupId, userId: id, username: data.username }];
    });
    joins.push(...joined);
    if (!current) {
      const email = data.email ?? null;
      imports.push([id, data.external_id, hash !== null, now]);
      creates.push([
        id,
        data.username,
        key,
        email,
        Boolean(email && data.email_verified),
        data.name ?? null,
        data.disabled ?? false,
        hash,
        false,
        'user',
        now,
        now,
      ]);
      events.push({ action: 'user.created', target: person, details: { role: 'user', email, imported: true } });
      outcome.push({ line, kind: 'created' });
      continue;
    }
    // Column → value, and the fields changed in the audit log's words.
    const change = new Map<string, SqlValue>();
    const changed: string[] = [];
    if (data.username !== current.username) {
      change.set('username', data.username).set('username_key', key);
      changed.push('username');
    }
    if (data.email !== undefined && data.email !== current.email) {
      change.set('email', data.email);
      changed.push('email');
    }
    const email = data.email === undefined ? current.email : data.email;
    const verified = data.email_verified === undefined ? Boolean(current.email_verified) && email === current.email : data.email_verified;
    if (Boolean(email && verified) !== Boolean(current.email_verified)) {
      change.set('email_verified', Boolean(email && verified));
      changed.push('emailVerified');
    }
    if (data.name !== undefined && data.name !== current.name) {
      change.set('name', data.name);
      changed.push('name');
    }
    if (changed.length) events.push({ action: 'user.updated', target: person, details: { changed } });
    // A password the person set or signed in with here is theirs: only an imported one, or none, is replaced.
    const replaceable = current.password_hash === null || Boolean(current.password_imported);
    if (hash !== null && replaceable && hash !== current.password_hash) {
      change.set('password_hash', hash);
      // Recorded as imported, so the first sign-in re-hashes it: on the person's import record, or on a new one for
      // a person of this Gatehouse's own export, who had none.
      if (current.external_id === null) imports.push([id, data.external_id, true, now]);
      else if (!current.password_imported) writes.push(['UPDATE user_imports SET password_imported = ? WHERE user_id = ?', [true, id]]);
      events.push({ action: 'user.password_changed', target: person, details: {} });
    }
    if (data.disabled !== undefined && data.disabled !== Boolean(current.disabled)) {
      change.set('disabled', data.disabled);
      events.push({ action: data.disabled ? 'user.disabled' : 'user.enabled', target: person, details: {} });
      if (data.disabled) disabling.push(id);
    }
    if (change.size) {
      change.set('updated_at', now);
      writes.push([`UPDATE users SET ${[...change.keys()].map((column) => `${column} = ?`).join(', ')} WHERE id = ?`, [...change.values(), id]]);
      changedIds.push(id);
    }
    outcome.push({ line, kind: change.size || joined.length ? 'updated' : 'unchanged' });
  }
  // As adding a member on the group's page does; a membership raises no webhook event there either.
  for (const { groupId, userId, username } of joins) {
    events.push({ action: 'group.member_added', target: { type: 'group', id: groupId, label: groupNames.get(groupId)! }, details: { userId, username } });
  }

  if (!dryRun && (creates.length || writes.length || joins.length)) {
    try {
      // Each person's entries (and so their webhook events) commit with the batch, or neither does.
      await writeAudited(db, by, events, [
        ...insertRows(
          'INSERT INTO users (id, username, username_key, email, email_verified, name, disabled, password_hash, requires_verified_email, role, created_at, updated_at)',
          creates,
        ),
        ...insertRows('INSERT INTO user_imports (user_id, external_id, password_imported, created_at)', imports),
        ...writes,
        ...insertRows(
          'INSERT INTO group_members (group_id, user_id, created_at)',
          joins.map((j) => [j.groupId, j.userId, now]),
        ),
      ]);
    } catch (error) {
      // Another writer took a username or an address since the check (or a group went): one line at a time, so only that line is refused.
      if (batch.length === 1) {
        const taken = isDriverUniqueViolation(error);
        refuse(batch[0].line, taken ? 'its username or email is another account’s (taken while importing)' : 'could not be written; see the server log');
        if (!taken) db.log.error({ err: error }, 'import: a line could not be written');
        return;
      }
      for (const one of batch) await writeBatch(db, [one], report, refuse, dryRun, by);
      return;
    }
    // Written on this process's own connection, which the read cache does not watch (lib/db/read-cache.ts).
    for (const id of changedIds) db.cache.forget(accountCacheKey(id));
    for (const { userId } of joins) forgetAccessOf(db, userId);
    // As disabling a person does (lib/users/manage.ts): their sessions, tokens and grants end.
    for (const id of disabling) {
      await destroyArtifactsOfAccount(db, id);
      await deleteConsentsOf(db, id);
    }
  }
  for (const [line, reason] of refused) refuse(line, reason);
  for (const { kind } of outcome) report[kind]++;
}
