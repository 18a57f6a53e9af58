// Tracing: the OTEL_* settings read, and the SDK's spans as an OTLP/HTTP receiver gets them (JSON and protobuf).
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { createLogger } from './log.ts';
import { startTracing, traced, tracing, tracingSettings, type Tracing } from './tracing.ts';

test('off without an endpoint, or when the SDK or the exporter is switched off', () => {
  assert.equal(tracingSettings({}), undefined);
  assert.equal(tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: '' }), undefined);
  assert.equal(tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' }), undefined);
  assert.equal(tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_TRACES_EXPORTER: 'none' }), undefined);
});

test('the endpoint gets /v1/traces appended, the traces endpoint is used as it is; the specification defaults', () => {
  const settings = tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' });
  assert.deepEqual(settings, {
    url: 'http://collector:4318/v1/traces',
    protocol: 'http/protobuf',
    sampler: { name: 'parentbased_always_on', ratio: 1 },
    batch: { scheduledDelayMillis: 5000, exportTimeoutMillis: 30_000, maxQueueSize: 2048, maxExportBatchSize: 512 },
  });
  const own = tracingSettings({
    OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://traces.example/otlp/v1/traces',
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
    OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'HTTP/JSON',
    OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
    OTEL_TRACES_SAMPLER_ARG: '0.25',
    OTEL_BSP_SCHEDULE_DELAY: '200',
  });
  assert.equal(own?.url, 'https://traces.example/otlp/v1/traces');
  assert.equal(own?.protocol, 'http/json');
  assert.deepEqual(own?.sampler, { name: 'parentbased_traceidratio', ratio: 0.25 });
  assert.equal(own?.batch.scheduledDelayMillis, 200);
});

test('a value it cannot use stops the start with a message naming the variable', () => {
  const refused: Array<[Record<string, string>, RegExp]> = [
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' }, /OTEL_EXPORTER_OTLP_ENDPOINT must be an http:\/\/ or https:\/\/ URL/],
    [
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' },
      /OTEL_EXPORTER_OTLP_PROTOCOL must be http\/protobuf or http\/json \(grpc is not supported/,
    ],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_EXPORTER: 'zipkin' }, /OTEL_TRACES_EXPORTER must be otlp or none/],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_SAMPLER: 'sometimes' }, /OTEL_TRACES_SAMPLER must be one of/],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_SAMPLER_ARG: '2' }, /OTEL_TRACES_SAMPLER_ARG must be from 0 to 1/],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_BSP_SCHEDULE_DELAY: 'soon' }, /OTEL_BSP_SCHEDULE_DELAY must be a number of milliseconds/],
    [
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_BSP_MAX_QUEUE_SIZE: '10', OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '20' },
      /must not exceed OTEL_BSP_MAX_QUEUE_SIZE/,
    ],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'yes' }, /OTEL_SDK_DISABLED must be true or false/],
  ];
  for (const [env, message] of refused) assert.throws(() => tracingSettings(env), message, JSON.stringify(env));
});

test('off, nothing is loaded: no tracer, and traced() only runs the function', async () => {
  assert.equal(await startTracing(undefined, { warn() {}, info() {} }), undefined);
  assert.equal(tracing(), undefined);
  assert.equal(await traced('argon2id hash', 'internal', {}, async () => 42), 42);
});

describe('with an endpoint (JSON)', () => {
  /** What an OTLP/HTTP receiver got: each request's path, content type and body. */
  const received: Array<{ path: string; type: string; body: Buffer }> = [];
  let receiver: Server;
  let tracer: Tracing;
  const reports: string[] = [];

  before(async () => {
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({ path: req.url ?? '', type: String(req.headers['content-type']), body: Buffer.concat(chunks) });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const { port } = receiver.address() as AddressInfo;
    const settings = tracingSettings({
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://user:pw@127.0.0.1:${port}`,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '60000',
    });
    tracer = (await startTracing(settings, { warn: (line) => reports.push(line), info: (line) => reports.push(line) }))!;
  });

  after(() => receiver.close());

  interface OtlpSpan {
    traceId: string;
    spanId: string;
    parentSpanId?: string;
    name: string;
    kind: number;
    attributes: Array<{ key: string; value: Record<string, unknown> }>;
    status?: { code?: number };
  }

  function spansOf(body: Buffer): { service: unknown; spans: OtlpSpan[] } {
    const payload = JSON.parse(body.toString('utf8')) as {
      resourceSpans: Array<{ resource: { attributes: OtlpSpan['attributes'] }; scopeSpans: Array<{ spans: OtlpSpan[] }> }>;
    };
    const [resourceSpans] = payload.resourceSpans;
    const service = resourceSpans.resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue;
    return { service, spans: resourceSpans.scopeSpans.flatMap((scope) => scope.spans) };
  }

  const attribute = (span: OtlpSpan, key: string) => {
    const value = span.attributes.find((a) => a.key === key)?.value;
    return value ? (value.stringValue ?? Number(value.intValue)) : undefined;
  };

  test('a request span with its children, the log lines inside it stamped, all sent at shutdown', async () => {
    assert.equal(tracing(), tracer);
    // The endpoint as printed: never the credentials it may carry.
    assert.match(tracer.endpoint, /^http:\/\/127\.0\.0\.1:\d+\/v1\/traces$/);
    const lines: Array<Record<string, unknown>> = [];
    const log = createLogger({ destination: { write: (line: string) => void lines.push(JSON.parse(line)) } });

    const span = tracer.requestSpan({ method: 'POST', route: '/oauth/token' });
    await span.run(async () => {
      log.info('inside');
      await traced('find AccessToken', 'client', { 'db.operation.name': 'find' }, async () => {
        log.info('deeper');
      });
      await assert.rejects(
        traced('argon2id verify', 'internal', {}, async () => {
          throw new TypeError('the secret s3cr3t-value did not verify');
        }),
      );
    });
    span.end({ status: 200, requestId: 'req-1', clientId: 'client-1' });
    log.info('outside');
    // A storage call outside any request: no span of its own.
    await traced('find Session', 'client', {}, async () => undefined);
    // Continues the caller's trace.
    const caller = tracer.requestSpan({ method: 'GET', route: undefined, traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' });
    caller.end({ status: 503, requestId: 'req-2' });

    assert.deepEqual(
      lines.map((line) => [line.msg, line.trace_id, line.span_id !== undefined]),
      [
        ['inside', span.traceId, true],
        ['deeper', span.traceId, true],
        ['outside', undefined, false],
      ],
    );
    assert.equal(lines[0].span_id, span.spanId);
    assert.notEqual(lines[1].span_id, span.spanId, 'the storage call is the active span inside it');

    assert.equal(received.length, 0, 'nothing sent before the batch is due');
    await tracer.shutdown();
    assert.equal(received.length, 1);
    assert.equal(received[0].path, '/v1/traces');
    assert.equal(received[0].type, 'application/json');
    assert.doesNotMatch(received[0].body.toString(), /s3cr3t-value|user:pw/);
    const { service, spans } = spansOf(received[0].body);
    assert.equal(service, 'gatehouse');
    const byName = new Map(spans.map((s) => [s.name, s]));
    assert.deepEqual([...byName.keys()].sort(), ['GET', 'POST /oauth/token', 'argon2id verify', 'find AccessToken']);
    const server = byName.get('POST /oauth/token')!;
    assert.equal(server.kind, 2, 'SERVER');
    assert.equal(server.parentSpanId ?? '', '');
    assert.equal(attribute(server, 'http.request.method'), 'POST');
    assert.equal(attribute(server, 'http.route'), '/oauth/token');
    assert.equal(attribute(server, 'http.response.status_code'), 200);
    assert.equal(attribute(server, 'gatehouse.request_id'), 'req-1');
    assert.equal(attribute(server, 'gatehouse.client_id'), 'client-1');
    const storage = byName.get('find AccessToken')!;
    assert.equal(storage.kind, 3, 'CLIENT');
    assert.equal(storage.parentSpanId, server.spanId);
    assert.equal(storage.traceId, server.traceId);
    const hash = byName.get('argon2id verify')!;
    assert.equal(hash.parentSpanId, server.spanId);
    assert.equal(attribute(hash, 'error.type'), 'TypeError');
    assert.equal(hash.status?.code, 2, 'ERROR');
    const continued = byName.get('GET')!;
    assert.equal(continued.traceId, '0af7651916cd43dd8448eb211c80319c');
    assert.equal(continued.parentSpanId, 'b7ad6b7169203331');
    assert.equal(attribute(continued, 'error.type'), '503');
    assert.deepEqual(reports, []);
  });
});
