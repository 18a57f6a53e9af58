/**
 * The process's log (pino): one JSON object a line on stdout, for a collector
 * to parse, or a short human-readable line when stdout is a terminal. One
 * logger per process, a field of the context (lib/context.ts); scripts/server.mjs
 * gets the server's with the provider's mount (lib/oidc/mounts/node.ts).
 *
 * The rule is never to hand the logger a credential: a request line carries a
 * route name, never a path with its token or a query string (lib/ops/request-observer.ts),
 * and errors are reduced to their type, message and stack (`err` below). The
 * redaction is defence in depth for a field that slips through anyway: a field
 * of these names at the top or in a request's parts (`body.code`), and the
 * credential headers (`req.headers.cookie`), are written as `[redacted]`.
 * Named paths only: pino's `*` wildcards cost on every line, and two levels of
 * them made each request line several times dearer than the line itself.
 */
import pino, { type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from '../config/env.ts';
import { tracing } from './tracing.ts';

export type Log = Logger;

/** Headers and parameters that carry a credential (RFC 6749 §4.1.2, §5.1, §2.3.1; RFC 7636 §4.5; RFC 6265). */
const SECRET_FIELDS = [
  'authorization',
  'cookie',
  'set-cookie',
  'password',
  'client_secret',
  'code',
  'code_verifier',
  'refresh_token',
  'access_token',
  'id_token',
  'token',
];

const SECRET_HEADERS = ['authorization', 'cookie', 'set-cookie', 'proxy-authorization'];
/** Where a request's parameters and headers would be, were they ever logged. */
const PARAMETER_HOLDERS = ['', 'body', 'params', 'query', 'form'];
const HEADER_HOLDERS = ['headers', 'req.headers', 'res.headers', 'request.headers', 'response.headers'];

/** pino's path (`a.b`, `a["b-c"]`) of `name` under `prefix`. */
const path = (prefix: string, name: string) => {
  const key = /^[a-z_]+$/.test(name) ? name : `["${name}"]`;
  return !prefix ? key : key.startsWith('[') ? `${prefix}${key}` : `${prefix}.${key}`;
};

export const REDACT_PATHS = [
  ...PARAMETER_HOLDERS.flatMap((holder) => SECRET_FIELDS.map((name) => path(holder, name))),
  ...HEADER_HOLDERS.flatMap((holder) => SECRET_HEADERS.map((name) => path(holder, name))),
];

export interface LogOptions {
  level?: LogLevel;
  /** Human-readable lines instead of JSON; by default when stdout is a terminal. */
  pretty?: boolean;
  /** Where the lines go (tests); stdout by default. */
  destination?: DestinationStream;
  /**
   * The active span's ids, added to every line written while one is active: by
   * default the process's tracer's (lib/ops/tracing.ts) when tracing was started
   * before this logger was made; without tracing, lines carry none and cost nothing more.
   */
  traceIds?: () => { trace_id: string; span_id: string } | undefined;
}

const NO_TRACE = {};

export function createLogger({ level = 'info', pretty = process.stdout.isTTY === true, destination, traceIds = tracing()?.logIds }: LogOptions = {}): Log {
  const out = destination ?? (pretty ? prettyStream(process.stdout) : stdoutLines());
  return pino(
    {
      level,
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      serializers: { err: serializeError },
      // pino merges the line's own fields over these: a request line names its own span (lib/ops/request-observer.ts).
      ...(traceIds ? { mixin: () => traceIds() ?? NO_TRACE } : {}),
    },
    out,
  );
}

/**
 * stdout for a collector, written in batches by pino's own writer (sonic-boom) off the request's path:
 * a write once 4 KB are pending (about 15 request lines) or every 100 ms, instead of a synchronous
 * write(2) per line. Each request's line used to hold its request until the pipe took it; a
 * collector that reads late (a busy log shipper, the benchmark's own process) then stalled every
 * answer. What is pending is written synchronously when the process exits (pino registers that
 * for an asynchronous destination), whether by a stop, a fatal error or an uncaught exception;
 * a SIGKILL loses at most the last 100 ms. Past 16 MB pending (a reader that stopped reading)
 * lines are dropped rather than held in memory.
 */
function stdoutLines(): DestinationStream {
  return pino.destination({ fd: 1, sync: false, minLength: 4096, periodicFlush: 100, maxLength: 16 * 1024 * 1024 });
}

/**
 * An error as logged: its type, message and stack, and the message of its
 * cause. Not its other fields, which pino would copy whole: a driver's or an
 * HTTP client's error can carry the request it failed on, headers included.
 * A Node error code goes into `type` (`Error ECONNREFUSED`): a field named
 * `code` is redacted as an authorization code would be.
 */
export function serializeError(error: unknown): Record<string, string> {
  if (!(error instanceof Error)) return { type: typeof error, message: String(error) };
  const code = (error as { code?: unknown }).code;
  const type = typeof code === 'string' || typeof code === 'number' ? `${error.name} ${code}` : error.name;
  const serialized: Record<string, string> = { type, message: error.message };
  if (error.stack) serialized.stack = error.stack;
  if (error.cause instanceof Error) serialized.cause = `${error.cause.name}: ${error.cause.message}`;
  return serialized;
}

const LEVEL_NAMES: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
/** Fields every line has, shown in the line's head (or not at all). */
const HEAD_FIELDS = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'err']);

/**
 * For a terminal: `12:03:04.567 INFO  listening on 0.0.0.0:3000 key=value ...`
 * with an error's stack below it. Written in process, so a developer's server
 * needs no worker thread (a pino transport) nor pino-pretty's dozen packages.
 */
export function prettyStream(out: { write(text: string): unknown }): DestinationStream {
  return {
    write(line: string) {
      let entry: Record<string, unknown>;
      try {
        entry = JSON.parse(line);
      } catch {
        out.write(line);
        return;
      }
      const time = typeof entry.time === 'string' ? entry.time.slice(11, 23) : '';
      const level = (LEVEL_NAMES[entry.level as number] ?? String(entry.level)).padEnd(5);
      const fields = Object.entries(entry)
        .filter(([key]) => !HEAD_FIELDS.has(key))
        .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
      const err = entry.err as Record<string, string> | undefined;
      const stack = err ? `\n    ${(err.stack ?? `${err.type}: ${err.message}`).replaceAll('\n', '\n    ')}` : '';
      out.write(`${[time, level, entry.msg ?? '', ...fields].join(' ')}${stack}\n`);
    },
  };
}

/** For tests: a logger at every level whose lines are kept, parsed, in `lines`. */
export function memoryLog(level: LogLevel = 'trace'): { log: Log; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const log = createLogger({ level, destination: { write: (line: string) => void lines.push(JSON.parse(line)) } });
  return { log, lines };
}
