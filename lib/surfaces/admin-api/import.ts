/**
 * The admin API's import and export of people: the body of an import is the file itself, read
 * as it streams in (at most UPLOAD_LIMIT bytes); an export streams out a page of people at a time.
 */
import 'server-only';
import { ADMIN_IMPORT_LIMIT } from '../../http/body-limits.ts';
import { InvalidRequest } from '../../platform/errors.ts';
import { exportLines } from '../../users/export.ts';
import { type ImportFormat, importRecords } from '../../users/import-format.ts';
import { importUsers as importUsersUseCase } from '../../users/import.ts';
import { downloadOfLines } from './download.ts';
import { importReportDto } from './dto/import.ts';
import { operations } from './operations.ts';
import { endpoint } from './route.ts';

const UPLOAD_LIMIT = ADMIN_IMPORT_LIMIT;

const MEDIA: Record<ImportFormat, string> = { jsonl: 'application/x-ndjson', csv: 'text/csv' };

function formatOfType(contentType: string | null): ImportFormat | undefined {
  const type = contentType?.split(';')[0].trim().toLowerCase();
  if (type === 'application/x-ndjson' || type === 'application/jsonl' || type === 'application/json-seq') return 'jsonl';
  if (type === 'text/csv') return 'csv';
  return undefined;
}

/** The request body's chunks, refused as soon as they pass the limit. */
async function* limited(request: Request): AsyncGenerator<Uint8Array> {
  if (Number(request.headers.get('content-length') ?? 0) > UPLOAD_LIMIT) throw new InvalidRequest('the file is larger than 16 MiB: send it in parts');
  let size = 0;
  if (!request.body) return;
  for await (const chunk of request.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > UPLOAD_LIMIT) throw new InvalidRequest('the file is larger than 16 MiB: send it in parts');
    yield chunk;
  }
}

export const importUsers = endpoint(operations.importUsers, async ({ db, request, query, by }) => {
  const format = query.format ?? formatOfType(request.headers.get('content-type'));
  if (!format) throw new InvalidRequest('send the file as application/x-ndjson or text/csv (or say ?format=jsonl|csv)');
  const report = await importUsersUseCase(db, importRecords(limited(request), format), by, { dryRun: query.dry_run });
  return importReportDto(report);
});

export const exportUsers = endpoint(operations.exportUsers, async ({ db, query }) => {
  const lines = exportLines(db, query.format);
  const extension = query.format === 'csv' ? 'csv' : 'jsonl';
  return downloadOfLines(lines, { contentType: MEDIA[query.format], filename: `people.${extension}` });
});
