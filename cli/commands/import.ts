/**
 * `gatehouse user import FILE` and `gatehouse user export`: people in and out as JSON lines or CSV
 * (lib/users/import.ts, lib/users/export.ts; docs/import-export.md has the formats).
 */
import fs from 'node:fs';
import { BY_CLI } from '../../lib/audit/log.ts';
import { InvalidRequest } from '../../lib/platform/errors.ts';
import { formatOfName, IMPORT_FORMATS, type ImportFormat, importRecords } from '../../lib/users/import-format.ts';
import { importReportToWire } from '../../lib/users/wire.ts';
import { parseCommand, positionals, type Command } from '../args.ts';

function formatFlag(command: string, value: string | undefined): ImportFormat | undefined {
  if (value === undefined) return undefined;
  if (!(IMPORT_FORMATS as readonly string[]).includes(value)) throw new InvalidRequest(`${command}: --format is one of ${IMPORT_FORMATS.join(', ')}`);
  return value as ImportFormat;
}

const importHelp = `Usage: gatehouse user import <file> [--format jsonl|csv] [--dry-run] [--json]

Creates or updates people from a file, one person a line: JSON lines (.jsonl,
.ndjson, .json) or CSV with a header row (.csv); --format when the name does
not say, and for <file> - (stdin). Fields (docs/import-export.md has examples):

  external_id      their id where they come from (required): importing the
                   file again updates them, never a second account
  username         required; email, email_verified, name, disabled
  groups           names of groups that exist (CSV: separated by ; or spaces);
                   a line naming an unknown group is refused
  password_hash    a PHC string (argon2, scrypt, pbkdf2-sha*), bcrypt ($2a$,
                   $2b$, $2y$), Django's pbkdf2_sha256$..., or with
                   password_salt, password_iterations and password_algorithm
                   (pbkdf2, pbkdf2-sha256, pbkdf2-sha512) as Keycloak exports
                   them; or Keycloak's own "credentials" array (JSON lines)

Hashes are stored as they are and checked at the person's first sign-in,
which hashes the password again with argon2id. An import replaces only a
hash an import brought. Everyone imported has no admin role. Lines are
written 500 to a transaction. On a terminal, a line shows the progress.

  --dry-run   check every line against the database, write nothing
  --json      print {"lines", "created", "updated", "unchanged", "rejected",
              "dry_run", "rejected_lines": [{"line", "reason"}]}

Exits 1 when any line was refused (the others are imported; the report lists
the first 1000 refused with their line numbers), 2 on a bad file or flag.
`;

const importCommand: Command = {
  summary: 'create or update people from a JSON lines or CSV file (with their password hashes)',
  help: importHelp,
  async run(argv, ctx) {
    const { values, positionals: rest } = parseCommand('user import', argv, {
      format: { type: 'string' },
      'dry-run': { type: 'boolean' },
    });
    const [file] = positionals('user import', rest, ['file']);
    const format = formatFlag('user import', values.format) ?? (file === '-' ? undefined : formatOfName(file));
    if (!format) throw new InvalidRequest(`user import: say the format of ${file} with --format ${IMPORT_FORMATS.join('|')}`);
    if (file !== '-' && !fs.statSync(file, { throwIfNoEntry: false })?.isFile()) throw new InvalidRequest(`user import: no file ${file}`);
    const db = await ctx.db();
    const { importUsers } = await import('../../lib/users/import.ts');
    const input = file === '-' ? (ctx.stdin as AsyncIterable<Uint8Array>) : fs.createReadStream(file);
    const started = performance.now();
    const report = await importUsers(db, importRecords(input, format), BY_CLI, {
      dryRun: values['dry-run'],
      onProgress:
        ctx.progress && ((c) => ctx.progress!(`${c.lines} lines: ${c.created} created, ${c.updated} updated, ${c.unchanged} unchanged, ${c.rejected} refused`)),
    });
    if (ctx.progress) ctx.progress('');
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const listed = report.rejectedLines.map(({ line, reason }) => `  line ${line}: ${reason}`);
    const more = report.rejected > listed.length ? [`  … and ${report.rejected - listed.length} more`] : [];
    return {
      json: importReportToWire(report),
      text: [
        `${report.dryRun ? 'Checked (dry run, nothing written)' : 'Imported'} ${file}: ${report.lines} lines in ${seconds} s, ` +
          `${report.created} ${report.dryRun ? 'to create' : 'created'}, ${report.updated} ${report.dryRun ? 'to update' : 'updated'}, ` +
          `${report.unchanged} unchanged, ${report.rejected} refused.`,
        ...(listed.length ? ['Refused lines:', ...listed, ...more] : []),
      ].join('\n'),
      failed: report.rejected > 0,
    };
  },
};

const exportCommand: Command = {
  summary: 'write every person as JSON lines or CSV (never a password hash or a secret)',
  help: `Usage: gatehouse user export [--format jsonl|csv] [--output FILE]

Writes one person a line to stdout (or FILE): id, external_id, username,
email, email_verified, name, disabled, role, groups, has_password,
created_at, updated_at. JSON lines unless --format csv (or FILE ends in .csv).
Never a password hash, a second factor or any other secret. The output imports
again (gatehouse user import): a line without external_id is known by its id.
`,
  async run(argv, ctx) {
    const { values, positionals: rest } = parseCommand('user export', argv, { format: { type: 'string' }, output: { type: 'string' } });
    positionals('user export', rest, []);
    const format = formatFlag('user export', values.format) ?? (values.output ? formatOfName(values.output) : undefined) ?? 'jsonl';
    const db = await ctx.db();
    const { exportLines } = await import('../../lib/users/export.ts');
    if (!values.output) {
      for await (const chunk of exportLines(db, format)) ctx.stdout.write(chunk);
      return { json: undefined, text: '', streamed: true };
    }
    const out = fs.createWriteStream(values.output, { mode: 0o600 });
    let lines = 0;
    for await (const chunk of exportLines(db, format)) {
      lines += chunk.split('\n').length - 1;
      if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
    }
    await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
    const count = format === 'csv' ? lines - 1 : lines;
    return { json: { output: values.output, format, people: count }, text: `Wrote ${count} people to ${values.output} (${format}).` };
  },
};

export const importCommands: Record<string, Command> = { import: importCommand, export: exportCommand };
