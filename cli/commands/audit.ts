/**
 * `gatehouse audit verify` and `gatehouse audit export`: check the audit log's
 * hash chain and its signed checkpoints (lib/audit/verify.ts), and write the
 * log as JSON lines for an auditor to keep (lib/audit/export.ts). docs/audit.md
 * says what a verified chain proves.
 */
import fs from 'node:fs';
import { z } from 'zod';
import { InvalidRequest } from '../../lib/platform/errors.ts';
import { parseCommand, positionals, type Command } from '../args.ts';

const jwksFile = z.object({ keys: z.array(z.looseObject({ kid: z.string().optional(), kty: z.string() })) });

function readJwks(path: string) {
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(path, 'utf8'));
  } catch {
    throw new InvalidRequest(`audit verify: --jwks ${path} is not a JSON file that can be read`);
  }
  const jwks = jwksFile.safeParse(parsed);
  if (!jwks.success) throw new InvalidRequest(`audit verify: --jwks ${path} is not a JWKS ({"keys": [...]})`);
  return jwks.data.keys;
}

const verify: Command = {
  summary: "check the audit log's hash chain and its signed checkpoints",
  help: `Usage: gatehouse audit verify [--jwks FILE] [--json]

Walks every entry of the audit log in chain order and reports the first that
was changed, removed or reordered (by seq, id and time), entries written
outside the chain after it began, and checkpoints whose signature does not
verify. Checkpoints are checked with the published signing keys; --jwks adds
keys from a JWKS kept earlier (/oauth/jwks as it was then), for
checkpoints signed by keys retired since, which otherwise count as
unverifiable. Entries from before the chain began are counted, not checked.

Exits 0 when the chain verifies, 1 when it does not.
`,
  async run(argv, ctx) {
    const { values, positionals: rest } = parseCommand('audit verify', argv, { jwks: { type: 'string' } });
    positionals('audit verify', rest, []);
    const kept = values.jwks ? readJwks(values.jwks) : [];
    const db = await ctx.db();
    const { verifyAuditChain, chainReportToWire } = await import('../../lib/audit/verify.ts');
    const report = await verifyAuditChain(db, { kept: kept as never });
    const c = report.checkpoints;
    const range = report.entries ? `seq ${report.firstSeq} to ${report.lastSeq}` : 'no entries';
    const lines = [
      `${report.ok ? 'The audit chain verifies' : 'The audit chain is BROKEN'}: ${report.entries} entries (${range}), ` +
        `${c.valid} of ${c.total} checkpoints verified${c.unverifiable ? `, ${c.unverifiable} signed by keys not published (--jwks)` : ''}` +
        `${report.unchained ? `; ${report.unchained} entries from before the chain` : ''}.`,
      ...report.problems.map((p) => `  ${p.kind}: ${p.message}`),
    ];
    return { json: chainReportToWire(report), text: lines.join('\n'), failed: !report.ok };
  },
};

/** A flag's instant: a UTC day (yyyy-mm-dd; --until: the whole day) or an RFC 3339 date-time. */
function instant(flag: string, value: string | undefined, endOfDay: boolean): Date | undefined {
  if (value === undefined) return undefined;
  const day = /^\d{4}-\d{2}-\d{2}$/.test(value);
  const parsed =
    day || z.iso.datetime({ offset: true }).safeParse(value).success
      ? new Date(day ? `${value}T${endOfDay ? '23:59:59.999' : '00:00:00.000'}Z` : value)
      : undefined;
  if (!parsed || Number.isNaN(parsed.getTime())) throw new InvalidRequest(`audit export: --${flag} is a date (yyyy-mm-dd) or an RFC 3339 date-time`);
  return parsed;
}

const exportCommand: Command = {
  summary: 'write the audit log as JSON lines, with its hashes and signed checkpoints',
  help: `Usage: gatehouse audit export [--since WHEN] [--until WHEN] [--output FILE]

Writes the audit entries at or after --since and at or before --until (a UTC
day, yyyy-mm-dd, --until meaning its end, or an RFC 3339 date-time; both
optional) to stdout or FILE, one a line: seq, id, at, actor_id,
actor_username, actor_role, action, target_type, target_id, target_label, ip,
user_agent, details (the stored JSON text), prev_hash and hash; then the
signed checkpoints made in the range, one a line as {"checkpoint": {...}}.
docs/audit.md says how to check the hashes from the file alone.
`,
  async run(argv, ctx) {
    const { values, positionals: rest } = parseCommand('audit export', argv, {
      since: { type: 'string' },
      until: { type: 'string' },
      output: { type: 'string' },
    });
    positionals('audit export', rest, []);
    const range = { since: instant('since', values.since, false), until: instant('until', values.until, true) };
    const db = await ctx.db();
    const { auditExportLines } = await import('../../lib/audit/export.ts');
    if (!values.output) {
      for await (const chunk of auditExportLines(db, range)) ctx.stdout.write(chunk);
      return { json: undefined, text: '', streamed: true };
    }
    const out = fs.createWriteStream(values.output, { mode: 0o600 });
    let lines = 0;
    for await (const chunk of auditExportLines(db, range)) {
      lines += chunk.split('\n').length - 1;
      if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
    }
    await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
    return { json: { output: values.output, lines }, text: `Wrote ${lines} lines to ${values.output}.` };
  },
};

export const auditCommands: Record<string, Command> = { verify, export: exportCommand };
