/** The wire of importing and exporting people (lib/users/import.ts, lib/users/export.ts). */
import { z } from 'zod';
import { IMPORT_FORMATS } from '../../../users/import-format.ts';
import type { ImportReport } from '../../../users/import.ts';
import { importReportToWire } from '../../../users/wire.ts';

const format = z.enum(IMPORT_FORMATS);
const flag = z
  .enum(['true', 'false'])
  .default('false')
  .transform((v) => v === 'true');

export const importQuerySchema = z.strictObject({
  format: format.optional().meta({ description: 'jsonl or csv; by default what the Content-Type says.' }),
  dry_run: flag.meta({ description: 'true: check every line against the database and write nothing.' }),
});

export const exportQuerySchema = z.strictObject({
  format: format.default('jsonl').meta({ description: 'jsonl (application/x-ndjson) or csv (text/csv).' }),
});

export const importReportSchema = z
  .strictObject({
    lines: z.number().int().min(0),
    created: z.number().int().min(0),
    updated: z.number().int().min(0),
    unchanged: z.number().int().min(0),
    rejected: z.number().int().min(0).meta({ description: 'Lines refused; the first 1000 are in rejected_lines.' }),
    dry_run: z.boolean(),
    rejected_lines: z.array(z.strictObject({ line: z.number().int().min(1), reason: z.string() })),
  })
  .meta({ id: 'ImportReport' });

export function importReportDto(report: ImportReport): z.input<typeof importReportSchema> {
  return importReportToWire(report);
}
