/**
 * Presentation only: aligned tables for people, and one-line descriptions of
 * zod issues that name the command-line flag rather than the schema field.
 */
import type { z } from 'zod';
import { issueMessages } from '../lib/platform/errors.ts';

/** Columns padded to their widest cell; an empty list says so instead of printing a bare header. */
export function table(headers: string[], rows: string[][], empty: string): string {
  if (rows.length === 0) return empty;
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [line(headers), ...rows.map(line)].join('\n');
}

/**
 * "--redirect-uri: http://x must use https; --name: Name is required". `flags`
 * maps a schema field to what the user typed (a flag stands for the whole
 * field, so `redirectUris.2` is `--redirect-uri`); other paths print as dotted paths.
 */
export function describeFlagIssues(error: z.ZodError, flags: Record<string, string> = {}): string {
  return issueMessages(error)
    .map(([path, message]) => {
      const head = path.split('.')[0];
      const where = Object.hasOwn(flags, head) ? flags[head] : path;
      return where ? `${where}: ${message}` : message;
    })
    .join('; ');
}
