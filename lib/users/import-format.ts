/**
 * Reading an import file as it streams in: JSON lines (one object a line) or CSV (RFC 4180:
 * a header row naming the fields, quoted cells may hold commas, quotes and line breaks). Each
 * record comes out with the line it starts on, so the report can name it; a line that cannot
 * be read is a record with a problem, and the rest of the file goes on. Nothing is held but the
 * record being read.
 */
import { InvalidRequest } from '../platform/errors.ts';

export const IMPORT_FORMATS = ['jsonl', 'csv'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

export type ImportRecord = { line: number; fields: Record<string, unknown> } | { line: number; problem: string };

/** The format a file name says: `.jsonl`, `.ndjson`, `.json` are JSON lines, `.csv` CSV. */
export function formatOfName(name: string): ImportFormat | undefined {
  if (/\.(jsonl|ndjson|json)$/i.test(name)) return 'jsonl';
  if (/\.csv$/i.test(name)) return 'csv';
  return undefined;
}

/** Longest line or cell read: a file that is not what it claims fails on its first line, not on memory. */
const MAX_RECORD = 1024 * 1024;

async function* textOf(chunks: AsyncIterable<Uint8Array | string>): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    for await (const chunk of chunks) yield typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    yield decoder.decode();
  } catch (error) {
    if (error instanceof TypeError) throw new InvalidRequest('the file is not UTF-8 text');
    throw error;
  }
}

/** The file's lines, numbered from 1, without their line break; a byte-order mark at the start dropped. */
async function* linesOf(chunks: AsyncIterable<Uint8Array | string>): AsyncGenerator<{ line: number; text: string }> {
  let rest = '';
  let line = 0;
  let first = true;
  for await (let text of textOf(chunks)) {
    if (first && text) {
      text = text.replace(/^\uFEFF/, '');
      first = false;
    }
    rest += text;
    let end = rest.indexOf('\n');
    while (end !== -1) {
      yield { line: ++line, text: rest.slice(0, end).replace(/\r$/, '') };
      rest = rest.slice(end + 1);
      end = rest.indexOf('\n');
    }
    if (rest.length > MAX_RECORD) throw new InvalidRequest(`line ${line + 1} is longer than ${MAX_RECORD} characters`);
  }
  if (rest) yield { line: ++line, text: rest.replace(/\r$/, '') };
}

async function* jsonLines(chunks: AsyncIterable<Uint8Array | string>): AsyncGenerator<ImportRecord> {
  for await (const { line, text } of linesOf(chunks)) {
    if (!text.trim()) continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      // Never the parser's message: it quotes the line, which may hold a hash.
      yield { line, problem: 'not valid JSON' };
      continue;
    }
    if (!value || typeof value !== 'object' || Array.isArray(value)) yield { line, problem: 'not a JSON object' };
    else yield { line, fields: value as Record<string, unknown> };
  }
}

/**
 * RFC 4180 cells of one record, which may run over several lines inside quotes: `more()` gives
 * the next line. Undefined when a quote is left open at the end of the file.
 */
async function csvCells(first: string, more: () => Promise<string | undefined>): Promise<string[] | undefined> {
  const cells: string[] = [];
  let text = first;
  let i = 0;
  let cell = '';
  let quoted = false;
  for (;;) {
    if (i >= text.length) {
      if (!quoted) break;
      const next = await more();
      if (next === undefined) return undefined;
      cell += '\n';
      if (cell.length > MAX_RECORD) return undefined;
      text = next;
      i = 0;
      continue;
    }
    const c = text[i++];
    if (quoted) {
      if (c === '"' && text[i] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"' && cell === '') quoted = true;
    else if (c === ',') {
      cells.push(cell);
      cell = '';
    } else cell += c;
  }
  cells.push(cell);
  return cells;
}

async function* csvRecords(chunks: AsyncIterable<Uint8Array | string>): AsyncGenerator<ImportRecord> {
  const lines = linesOf(chunks);
  let last = 0;
  const more = async () => {
    const next = await lines.next();
    if (next.done) return undefined;
    last = next.value.line;
    return next.value.text;
  };
  let header: string[] | undefined;
  for (let text = await more(); text !== undefined; text = await more()) {
    const line = last;
    if (!text.trim()) continue;
    const cells = await csvCells(text, more);
    if (!cells) {
      yield { line, problem: 'a quoted cell is not closed' };
      return;
    }
    if (!header) {
      header = cells.map((name) => name.trim());
      const twice = header.find((name, i) => header!.indexOf(name) !== i);
      if (twice) throw new InvalidRequest(`the CSV header names ${twice} twice`);
      continue;
    }
    if (cells.length !== header.length) {
      yield { line, problem: `${cells.length} cells where the header has ${header.length}` };
      continue;
    }
    yield { line, fields: Object.fromEntries(header.map((name, i) => [name, cells[i]])) };
  }
}

/** The records of an import file, in the given format. */
export function importRecords(chunks: AsyncIterable<Uint8Array | string>, format: ImportFormat): AsyncGenerator<ImportRecord> {
  return format === 'csv' ? csvRecords(chunks) : jsonLines(chunks);
}
