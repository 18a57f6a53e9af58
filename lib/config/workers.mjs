/**
 * WORKERS, read by two sides with one rule: scripts/server.mjs, which forks the
 * workers before Next loads and so cannot import the configuration, and
 * lib/config/env.ts, which validates it with every other setting.
 *
 * Plain JavaScript with no imports (its types in ./workers.d.mts): a .ts file
 * would have Node load its type stripper, ~18 MB resident in every process of
 * the server, the one process of WORKERS=1 included.
 */

/** The most WORKERS may name: more than any machine's cores, so a larger number is a typo. */
export const MAX_WORKERS = 256;

/** What WORKERS must look like, said when it does not. */
export const WORKERS_RULE = `WORKERS must be auto (one per core) or a whole number from 1 to ${MAX_WORKERS}`;

/**
 * How many processes serve, as WORKERS says: `auto` (the default: unset or empty counts as it, in any case,
 * blanks ignored) is `cores`, a number is itself; undefined when the value is neither, for the caller to refuse.
 */
export function workerCount(value, cores) {
  const text = (value ?? '').trim().toLowerCase();
  if (text === '' || text === 'auto') return Math.max(1, Math.min(cores, MAX_WORKERS));
  if (!/^\d+$/.test(text)) return undefined;
  const count = Number(text);
  return count >= 1 && count <= MAX_WORKERS ? count : undefined;
}
