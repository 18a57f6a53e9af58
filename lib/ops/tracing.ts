/**
 * OpenTelemetry traces, for an operator who runs a collector: on when
 * OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set,
 * off otherwise. Off, the SDK is never loaded: this module imports nothing of
 * OpenTelemetry, and ./tracing-sdk.ts (the SDK, the exporter) is imported only
 * by startTracing. Every call site asks `tracing()` and does nothing more when it
 * is undefined, so a server without a collector pays one property read per request.
 *
 * What is traced: one server span per request, named by its
 * route (`POST /oauth/token`), with the status, the client and the request id;
 * under it the provider's storage calls (lib/oidc/adapter.ts) and argon2id
 * hashing (lib/platform/passwords.ts). A span never carries a path as sent, a
 * query string, a header or a body: those hold codes, tokens, state and cookies.
 * Only names from closed lists, the status, ids Gatehouse made (request id,
 * client_id) and error class names become attributes.
 *
 * One tracer per process, in the record Next's module graphs share
 * (lib/platform/process.ts), as OpenTelemetry's own API keeps its state on
 * globalThis; password hashing has no context to carry it.
 *
 * The settings are OpenTelemetry's standard environment variables, read here
 * with zod so that a bad value stops the start with a message naming it, as
 * lib/config/env.ts does for Gatehouse's own.
 */
import { z } from 'zod';
import { issueMessages } from '../platform/errors.ts';
import { processShared } from '../platform/process.ts';

/** What tracingSettings read; `undefined` from it means tracing is off. */
export interface TracingSettings {
  /** Where spans are sent: the traces endpoint itself (…/v1/traces). */
  url: string;
  protocol: 'http/protobuf' | 'http/json';
  sampler: { name: SamplerName; ratio: number };
  /** The batch span processor's limits (OTEL_BSP_*), milliseconds and span counts. */
  batch: { scheduledDelayMillis: number; exportTimeoutMillis: number; maxQueueSize: number; maxExportBatchSize: number };
}

const SAMPLERS = ['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'] as const;
export type SamplerName = (typeof SAMPLERS)[number];

/** Unset and empty are the same (an unset variable in a compose file is often an empty one). */
const optional = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (typeof v === 'string' ? v.trim() || undefined : v), schema);

const httpUrl = (name: string) =>
  optional(z.url({ protocol: /^https?$/, error: `${name} must be an http:// or https:// URL, such as http://localhost:4318` }).optional());

const millis = (name: string, fallback: number) =>
  optional(
    z.coerce
      .number({ error: `${name} must be a number of milliseconds` })
      .int(`${name} must be a whole number of milliseconds`)
      .min(0)
      .max(3_600_000)
      .default(fallback),
  );

const count = (name: string, fallback: number) =>
  optional(
    z.coerce
      .number({ error: `${name} must be a number` })
      .int(`${name} must be a whole number`)
      .min(1, `${name} must be at least 1`)
      .max(1_000_000)
      .default(fallback),
  );

const protocol = (name: string) =>
  optional(
    z
      .string()
      .transform((v) => v.toLowerCase())
      .pipe(
        z.enum(['http/protobuf', 'http/json'], {
          error: `${name} must be http/protobuf or http/json (grpc is not supported: point it at the collector's OTLP/HTTP port, usually 4318)`,
        }),
      )
      .optional(),
  );

const otelSchema = z.object({
  // The specification's switch for the whole SDK.
  OTEL_SDK_DISABLED: optional(z.enum(['true', 'false'], { error: 'OTEL_SDK_DISABLED must be true or false' }).default('false')),
  OTEL_TRACES_EXPORTER: optional(
    z
      .string()
      .transform((v) => v.toLowerCase())
      .pipe(z.enum(['otlp', 'none'], { error: 'OTEL_TRACES_EXPORTER must be otlp or none (the only exporters Gatehouse ships)' }))
      .default('otlp'),
  ),
  OTEL_EXPORTER_OTLP_ENDPOINT: httpUrl('OTEL_EXPORTER_OTLP_ENDPOINT'),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: httpUrl('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'),
  OTEL_EXPORTER_OTLP_PROTOCOL: protocol('OTEL_EXPORTER_OTLP_PROTOCOL'),
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: protocol('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'),
  OTEL_TRACES_SAMPLER: optional(
    z
      .string()
      .transform((v) => v.toLowerCase())
      .pipe(z.enum(SAMPLERS, { error: `OTEL_TRACES_SAMPLER must be one of ${SAMPLERS.join(', ')}` }))
      .default('parentbased_always_on'),
  ),
  OTEL_TRACES_SAMPLER_ARG: optional(
    z.coerce
      .number({ error: 'OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1' })
      .min(0, 'OTEL_TRACES_SAMPLER_ARG must be from 0 to 1')
      .max(1, 'OTEL_TRACES_SAMPLER_ARG must be from 0 to 1')
      .optional(),
  ),
  OTEL_BSP_SCHEDULE_DELAY: millis('OTEL_BSP_SCHEDULE_DELAY', 5000),
  OTEL_BSP_EXPORT_TIMEOUT: millis('OTEL_BSP_EXPORT_TIMEOUT', 30_000),
  OTEL_BSP_MAX_QUEUE_SIZE: count('OTEL_BSP_MAX_QUEUE_SIZE', 2048),
  OTEL_BSP_MAX_EXPORT_BATCH_SIZE: count('OTEL_BSP_MAX_EXPORT_BATCH_SIZE', 512),
});

/**
 * The tracing settings from OpenTelemetry's environment variables, or undefined
 * when tracing is off (no endpoint, OTEL_SDK_DISABLED=true, OTEL_TRACES_EXPORTER=none).
 * Throws an Error naming the variable for a value it cannot use.
 */
export function tracingSettings(env: Record<string, string | undefined> = process.env): TracingSettings | undefined {
  const parsed = otelSchema.safeParse(env);
  if (!parsed.success) {
    const [[field, message]] = issueMessages(parsed.error);
    throw new Error(message.startsWith('OTEL_') ? message : `${field}: ${message}`);
  }
  const o = parsed.data;
  if (o.OTEL_SDK_DISABLED === 'true' || o.OTEL_TRACES_EXPORTER === 'none') return undefined;
  // OTLP/HTTP: the signal's own endpoint as it is; the general one with the signal's path appended.
  const url =
    o.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? (o.OTEL_EXPORTER_OTLP_ENDPOINT ? `${o.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}/v1/traces` : undefined);
  if (!url) return undefined;
  if (o.OTEL_BSP_MAX_EXPORT_BATCH_SIZE > o.OTEL_BSP_MAX_QUEUE_SIZE) throw new Error('OTEL_BSP_MAX_EXPORT_BATCH_SIZE must not exceed OTEL_BSP_MAX_QUEUE_SIZE');
  return {
    url,
    protocol: o.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? o.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/protobuf',
    sampler: { name: o.OTEL_TRACES_SAMPLER, ratio: o.OTEL_TRACES_SAMPLER_ARG ?? 1 },
    batch: {
      scheduledDelayMillis: o.OTEL_BSP_SCHEDULE_DELAY,
      exportTimeoutMillis: o.OTEL_BSP_EXPORT_TIMEOUT,
      maxQueueSize: o.OTEL_BSP_MAX_QUEUE_SIZE,
      maxExportBatchSize: o.OTEL_BSP_MAX_EXPORT_BATCH_SIZE,
    },
  };
}

/** An endpoint as printed: no user, password or query, which may carry credentials. */
export function printableEndpoint(url: string): string {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
}

export type SpanAttributes = Record<string, string | number | boolean>;

/** The server span of one request: made when it arrives, ended when its answer is complete. */
export interface RequestSpan {
  /** Runs `fn` with this span active: the spans it starts and the lines it logs belong to the request. */
  run<T>(fn: () => T): T;
  readonly traceId: string;
  readonly spanId: string;
  /** `requestId` is the X-Request-Id answered; `clientId` the client the provider authenticated or loaded. */
  end(outcome: { status: number; requestId: string; clientId?: string }): void;
}

export interface RequestSpanStart {
  method: string | undefined;
  /** The route template (`/oauth/token`, `/interaction/:id/login`), or undefined for a path that is none: the span is then named by the method alone. */
  route: string | undefined;
  /** The caller's W3C trace context (traceparent, tracestate), so its trace continues here. */
  traceparent?: string | null;
  tracestate?: string | null;
}

export interface Tracing {
  /** Where spans go, as printed at start-up (printableEndpoint). */
  readonly endpoint: string;
  requestSpan(start: RequestSpanStart): RequestSpan;
  /**
   * Runs `fn` in a child span of the active one; with no sampled span active
   * (a timer, a request that is not traced), just runs it. The span records
   * only `attributes` and, if `fn` throws, the error's class name.
   */
  inSpan<T>(name: string, kind: 'internal' | 'client', attributes: SpanAttributes, fn: () => Promise<T>): Promise<T>;
  /** The active span's ids, for a log line (lib/ops/log.ts). */
  logIds(): { trace_id: string; span_id: string } | undefined;
  /** Sends the spans still queued (within a bounded time) and stops. */
  shutdown(): Promise<void>;
}

/** The process's tracer, or undefined when tracing is off. */
export function tracing(): Tracing | undefined {
  return processShared().tracer;
}

/** What the tracer reports about itself (spans that could not be sent), to the context's log. */
export interface TracingReport {
  warn(line: string): void;
  info(line: string): void;
}

/**
 * Starts tracing with these settings (tracingSettings), once per process, and
 * returns the tracer; with none, loads nothing and returns undefined. Call it
 * before the context builds its logger, which then stamps each line with the
 * active span's ids.
 */
export async function startTracing(settings: TracingSettings | undefined, report: TracingReport): Promise<Tracing | undefined> {
  if (!settings) return undefined;
  if (!processShared().tracer) {
    const { createTracing } = await import('./tracing-sdk.ts');
    processShared().tracer = await createTracing(settings, report);
  }
  return processShared().tracer;
}

/** For tests: installs (or removes, with undefined) the process's tracer. */
export function setTracingForTests(tracer: Tracing | undefined): void {
  processShared().tracer = tracer;
}

/** `fn` in a child span when tracing is on (Tracing.inSpan), else just `fn`. */
export function traced<T>(name: string, kind: 'internal' | 'client', attributes: SpanAttributes, fn: () => Promise<T>): Promise<T> {
  const tracer = processShared().tracer;
  return tracer ? tracer.inSpan(name, kind, attributes, fn) : fn();
}
