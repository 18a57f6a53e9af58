// Log lines of `npm start`'s own processes where the app's logger (lib/ops/log.ts) is not there: a server
// failing before the start-up hands it over (scripts/server.mjs), and the workers' primary
// (scripts/primary.mjs), which never loads the app. The same shape: one JSON object a line, or a short
// line when stdout is a terminal, so a collector or a person reads them with the workers' own.
import { hostname } from 'node:os';

const LEVELS = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 };
const NAMES = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };

/** LOG_LEVEL as lib/config/env.ts reads it (any case, blanks ignored); a value it would refuse counts as info here. */
function threshold() {
  const level = (process.env.LOG_LEVEL ?? '').trim().toLowerCase();
  if (level === 'silent') return Number.POSITIVE_INFINITY;
  return LEVELS[level] ?? LEVELS.info;
}

/** An error as lib/ops/log.ts writes it: its type and message, nothing else it may carry. */
function errorFields(error) {
  if (error === undefined) return {};
  if (!(error instanceof Error)) return { err: { type: typeof error, message: String(error) } };
  const code = error.code;
  return { err: { type: typeof code === 'string' || typeof code === 'number' ? `${error.name} ${code}` : error.name, message: error.message } };
}

/**
 * Writes one line at `level` (pino's names) when LOG_LEVEL lets it through, `always` whatever it says (a
 * failure to start, which the app's own logger would never get to write). `fields` go into the line as they are;
 * `error` as `err`.
 */
export function logLine(level, msg, { fields = {}, error, always = false } = {}) {
  const value = LEVELS[level];
  if (!always && value < threshold()) return;
  // pino's order: the message last.
  const entry = { level: value, time: new Date().toISOString(), pid: process.pid, hostname: hostname(), ...fields, ...errorFields(error), msg };
  if (!process.stdout.isTTY) {
    process.stdout.write(`${JSON.stringify(entry)}\n`);
    return;
  }
  const extra = Object.entries({ ...fields, ...(entry.err ? { err: `${entry.err.type}: ${entry.err.message}` } : {}) }).map(
    ([key, v]) => `${key}=${typeof v === 'string' ? v : JSON.stringify(v)}`,
  );
  process.stdout.write(`${[entry.time.slice(11, 23), NAMES[value].padEnd(5), msg, ...extra].join(' ')}\n`);
}
