/**
 * The OpenTelemetry SDK behind ./tracing.ts, imported only when tracing is on:
 * a tracer provider with a batch span processor and the OTLP/HTTP exporter
 * (protobuf or JSON), W3C trace context read from each request, and the
 * AsyncLocalStorage context manager that carries the active span through a
 * request's awaits.
 *
 * The tracer provider is deliberately not registered as OpenTelemetry's global
 * one: Next.js traces itself through the global API whenever a provider is
 * registered, and its request spans carry `http.target`, the URL as sent, query
 * string included (next/dist/server/base-server.js): an authorization request's
 * state and PKCE challenge, a reset link's token in the path. Only the context
 * manager is global, which Next's own (no-op) spans pass through unchanged, so a
 * page's argon2id call still finds the request's span under `npm start`.
 *
 * Standard variables the exporter reads itself: OTEL_EXPORTER_OTLP_[TRACES_]HEADERS,
 * _TIMEOUT, _COMPRESSION, _CERTIFICATE, _CLIENT_CERTIFICATE, _CLIENT_KEY; the
 * resource detectors read OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES.
 */
import { context, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context, type Span } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { ExportResultCode, W3CTraceContextPropagator, type ExportResult } from '@opentelemetry/core';
import { defaultResource, detectResources, resourceAttributesEnvDetector, resourceFromAttributes, serviceNameEnvDetector } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
  type ReadableSpan,
  type Sampler,
  type SpanExporter,
} from '@opentelemetry/sdk-trace';
import { printableEndpoint, type RequestSpan, type SamplerName, type Tracing, type TracingReport, type TracingSettings } from './tracing.ts';

/** The service's name unless OTEL_SERVICE_NAME (or service.name in OTEL_RESOURCE_ATTRIBUTES) says otherwise. */
const SERVICE_NAME = 'gatehouse';
/** How long a stop waits for the last spans to go: scripts/server.mjs exits after 15 s whatever happens. */
const SHUTDOWN_LIMIT_MS = 3000;

export async function createTracing(settings: TracingSettings, report: TracingReport): Promise<Tracing> {
  const { OTLPTraceExporter } =
    settings.protocol === 'http/json' ? await import('@opentelemetry/exporter-trace-otlp-http') : await import('@opentelemetry/exporter-trace-otlp-proto');
  const endpoint = printableEndpoint(settings.url);
  const exporter = reportingFailures(new OTLPTraceExporter({ url: settings.url }), endpoint, report);
  const resource = defaultResource()
    .merge(resourceFromAttributes({ 'service.name': SERVICE_NAME }))
    .merge(detectResources({ detectors: [resourceAttributesEnvDetector, serviceNameEnvDetector] }));
  const provider = new TracerProvider({
    resource,
    sampler: sampler(settings.sampler.name, settings.sampler.ratio),
    spanProcessors: [new BatchSpanProcessor({ exporter, ...settings.batch })],
  });
  const tracer = provider.getTracer('gatehouse');
  // Carries the active span across awaits; global, as OpenTelemetry's context API reads it from there.
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const propagator = new W3CTraceContextPropagator();

  const activeSampled = (): Context | undefined => {
    const active = context.active();
    const parent = trace.getSpanContext(active);
    // Sampled: a span of a trace that is not exported would only cost.
    return parent && trace.isSpanContextValid(parent) && (parent.traceFlags & 1) === 1 ? active : undefined;
  };

  return {
    endpoint,
    requestSpan({ method = 'HTTP', route, traceparent, tracestate }): RequestSpan {
      const carrier: Record<string, string> = {};
      if (traceparent) carrier.traceparent = traceparent;
      if (tracestate) carrier.tracestate = tracestate;
      const parent = traceparent
        ? propagator.extract(ROOT_CONTEXT, carrier, { get: (c, key) => (c as Record<string, string>)[key], keys: Object.keys })
        : ROOT_CONTEXT;
      const attributes: Record<string, string> = { 'http.request.method': method };
      if (route) attributes['http.route'] = route;
      const span = tracer.startSpan(route ? `${method} ${route}` : method, { kind: SpanKind.SERVER, attributes }, parent);
      const active = trace.setSpan(parent, span);
      const { traceId, spanId } = span.spanContext();
      return {
        traceId,
        spanId,
        run: (fn) => context.with(active, fn),
        end({ status, requestId, clientId }) {
          span.setAttribute('http.response.status_code', status);
          span.setAttribute('gatehouse.request_id', requestId);
          if (clientId) span.setAttribute('gatehouse.client_id', clientId);
          // Semantic conventions: a server span fails with a 5xx only; a 4xx is the client's.
          if (status >= 500) {
            span.setAttribute('error.type', String(status));
            span.setStatus({ code: SpanStatusCode.ERROR });
          }
          span.end();
        },
      };
    },
    inSpan(name, kind, attributes, fn) {
      const parent = activeSampled();
      if (!parent) return fn();
      return tracer.startActiveSpan(name, { kind: kind === 'client' ? SpanKind.CLIENT : SpanKind.INTERNAL, attributes }, parent, (span: Span) =>
        fn().then(
          (value) => {
            span.end();
            return value;
          },
          (error: unknown) => {
            // The class only: a message can quote what it failed on.
            span.setAttribute('error.type', error instanceof Error ? error.name : typeof error);
            span.setStatus({ code: SpanStatusCode.ERROR });
            span.end();
            throw error;
          },
        ),
      );
    },
    logIds() {
      const active = trace.getSpanContext(context.active());
      return active && trace.isSpanContextValid(active) ? { trace_id: active.traceId, span_id: active.spanId } : undefined;
    },
    // Never throws: spans that cannot be sent are reported, and the stop goes on.
    async shutdown() {
      let timer: NodeJS.Timeout | undefined;
      const limit = new Promise<string>((resolve) => {
        timer = setTimeout(() => resolve(`not within ${SHUTDOWN_LIMIT_MS / 1000} s`), SHUTDOWN_LIMIT_MS);
      });
      const sent = provider.shutdown().then(
        () => undefined,
        (error: unknown) => (error instanceof Error ? error.message : String(error)),
      );
      const problem = await Promise.race([sent, limit]).finally(() => clearTimeout(timer));
      if (problem) report.warn(`traces: the last spans were not sent to ${endpoint}: ${problem}`);
    },
  };
}

/** OTEL_TRACES_SAMPLER's names (OpenTelemetry SDK environment variables specification). */
function sampler(name: SamplerName, ratio: number): Sampler {
  switch (name) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(ratio);
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio) });
    default:
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}

/**
 * The exporter, telling the log when spans stop reaching the collector and
 * when they reach it again: once per change, not once per batch (every 5 s).
 */
function reportingFailures(exporter: SpanExporter, endpoint: string, report: TracingReport): SpanExporter {
  let failing = false;
  return {
    export(spans: ReadableSpan[], done: (result: ExportResult) => void) {
      exporter.export(spans, (result) => {
        if (result.code === ExportResultCode.FAILED && !failing) {
          failing = true;
          report.warn(`traces: spans could not be sent to ${endpoint}${result.error ? `: ${result.error.message}` : ''}`);
        } else if (result.code === ExportResultCode.SUCCESS && failing) {
          failing = false;
          report.info(`traces: spans reach ${endpoint} again`);
        }
        done(result);
      });
    },
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
  };
}
