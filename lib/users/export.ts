/**
 * Exporting people (the CLI's `gatehouse user export`, the admin API's GET /api/admin/users/export):
 * one person a line, as JSON lines or CSV, read a page at a time so any number streams out in
 * little memory. What a line holds is what an import reads back (lib/users/import.ts), and never a
 * secret: no password hash, no factor, no recovery code; `has_password` only says whether there is one.
 */
import type { Database } from '../db/database.ts';
import type { ImportFormat } from './import-format.ts';

export const EXPORT_COLUMNS = [
  'id',
  'external_id',
  'username',
  'email',
  'email_verified',
  'name',
  'disabled',
  'role',
  'groups',
  'has_password',
  'created_at',
  'updated_at',
] as const;

export type ExportedPerson = {
  id: string;
  external_id: string | null;
  username: string;
  email: string | null;
  email_verified: boolean;
  name: string | null;
  disabled: boolean;
  role: string;
  groups: string[];
  has_password: boolean;
  created_at: string;
  updated_at: string;
};

const PAGE = 1000;

/** Every person, oldest first (the id breaks ties), a page of PAGE at a time. */
export async function* exportedPeople(db: Database): AsyncGenerator<ExportedPerson> {
  let cursor: { createdAt: Date; id: string } | undefined;
  for (;;) {
    const rows = await db.prisma.user.findMany({
      where: cursor ? { OR: [{ createdAt: { gt: cursor.createdAt } }, { createdAt: cursor.createdAt, id: { gt: cursor.id } }] } : {},
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      take: PAGE,
      select: {
        id: true,
        imported: { select: { externalId: true } },
        username: true,
        email: true,
        emailVerified: true,
        name: true,
        disabled: true,
        role: true,
        createdAt: true,
        updatedAt: true,
        // Read only to say whether there is one: the hash never leaves this function.
        passwordHash: true,
        groups: { select: { group: { select: { name: true } } } },
      },
    });
    for (const row of rows) {
      yield {
        id: row.id,
        external_id: row.imported?.externalId ?? null,
        username: row.username,
        email: row.email,
        email_verified: row.emailVerified,
        name: row.name,
        disabled: row.disabled,
        role: row.role,
        groups: row.groups.map((g) => g.group.name).sort(),
        has_password: row.passwordHash !== null,
        created_at: row.createdAt.toISOString(),
        updated_at: row.updatedAt.toISOString(),
      };
    }
    if (rows.length < PAGE) return;
    const last = rows[rows.length - 1];
    cursor = { createdAt: last.createdAt, id: last.id };
  }
}

/** RFC 4180: a cell with a comma, quote or line break in quotes, its quotes doubled. A leading =, +, - or @ is kept as it is (see docs/import-export.md). */
function csvCell(value: unknown): string {
  const text = value === null || value === undefined ? '' : Array.isArray(value) ? value.join(';') : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The export as text chunks: a header first for CSV; one line per person, each ending in a line break. */
export async function* exportLines(db: Database, format: ImportFormat): AsyncGenerator<string> {
  if (format === 'csv') yield `${EXPORT_COLUMNS.join(',')}\r\n`;
  let chunk = '';
  for await (const person of exportedPeople(db)) {
    chunk += format === 'csv' ? `${EXPORT_COLUMNS.map((column) => csvCell(person[column])).join(',')}\r\n` : `${JSON.stringify(person)}\n`;
    if (chunk.length > 64 * 1024) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}
