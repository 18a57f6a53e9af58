/**
 * WORKERS, read by two sides with one rule: scripts/server.mjs, which forks the
 * workers before Next loads and so cannot import the configuration, and
 * lib/config/env.ts, which validates it with every other setting.
 *
 * No imports and no syntax beyond erasable types: Node loads this file as it is
 * (22.18 or newer, as `npm start` runs), as next.config.js loads ./dist-dir.ts.
 */

/** The most WORKERS may name: more than any machine's cores, so a larger number is a typo. */
export const MAX_WORKERS = 256;

/** What WORKERS must look like, said when it does not. */
export const WORKERS_RULE = `WORKERS must be auto (one per core) or a whole number from 1 to ${MAX_WORKERS}`;

/**
 * How many processes serve, as WORKERS says: `auto` (the default: unset or empty counts as it, in any case,
 * blanks ignored) is `cores`, a number is itself; undefined when the value is neither, for the caller to refuse.
 */
export function workerCount(value: string | undefined, cores: number): number | undefined {
  const text = (value ?? '').trim().toLowerCase();
  if (text === '' || text === 'auto') return Math.max(1, Math.min(cores, MAX_WORKERS));
  if (!/^\d+$/.test(text)) return undefined;
  const count = Number(text);
  return count >= 1 && count <= MAX_WORKERS ? count : undefined;
}
