// runs-on: everywhere
// OpenTelemetry traces (lib/ops/tracing.ts, README *Traces*): an instance of its own, on a database of its own, with
// OTEL_EXPORTER_OTLP_ENDPOINT pointing at an OTLP/HTTP receiver in this test (JSON encoding): a token request, an
// introspection that continues the caller's trace, and a sign-in through the authorization endpoint; then SIGTERM,
// whose graceful stop sends the spans still queued (the batch is set to wait a minute, so nothing arrives before).
// The spans: names, status, the request id answered, parent and child; and not one secret, token, code, password,
// cookie, state or query string anywhere in what the receiver got. Runs on both mounts (the instance is mounted as
// the suite's server is).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { closeDatabase, database } from '../../lib/db/database.ts';
import { registerClient } from '../../lib/clients/manage.ts';
import { createUser } from '../../lib/users/manage.ts';
import { authorize, TestBrowser } from '../support/browser.ts';
import { basic, pkce, redirectUri } from '../support/fixtures.ts';
import { isolatedDatabase, startServer } from '../support/server.ts';

const skip = process.env.GATEHOUSE_TEST_URL ? false : 'GATEHOUSE_TEST_URL is not set (scripts/test.ts sets it with the server it starts)';
const underNpmStart = process.env.GATEHOUSE_TEST_MOUNT !== 'next';
const own = isolatedDatabase('tracing');

/** What the receiver got: one entry per export request. */
const exports: Array<{ path: string; headers: IncomingHttpHeaders; body: string }> = [];
const receiver = createServer((req, res) => {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk: string) => (body += chunk));
  req.on('end', () => {
    exports.push({ path: req.url ?? '', headers: req.headers, body });
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});
before(() => new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve)));
after(async () => {
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
  await closeDatabase(own.url);
  await own.drop();
});

interface Attribute {
  key: string;
  value: { stringValue?: string; intValue?: string | number; boolValue?: boolean };
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Attribute[];
  status?: { code?: number };
}
interface OtlpPayload {
  resourceSpans: Array<{ resource: { attributes: Attribute[] }; scopeSpans: Array<{ spans: OtlpSpan[] }> }>;
}

const attribute = (attributes: Attribute[], key: string) => {
  const value = attributes.find((a) => a.key === key)?.value;
  return value?.stringValue ?? (value?.intValue === undefined ? value?.boolValue : Number(value.intValue));
};

function form(url: string, body: Record<string, string>, headers: Record<string, string> = {}) {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams(body) });
}

test("a token request, an introspection in the caller's trace and a sign-in: their spans, sent at the stop, without a secret", {
  skip,
  timeout: 120_000,
}, async (t) => {
  const collectorToken = randomBytes(16).toString('hex');
  const instance = await startServer({
    DATABASE_URL: own.url,
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_EXPORTER_OTLP_HEADERS: `authorization=Bearer ${collectorToken}`,
    // Nothing is sent before the stop: what arrives was flushed by it.
    OTEL_BSP_SCHEDULE_DELAY: '60000',
    METRICS_PORT: '',
  });
  let stopped = false;
  try {
    // Through the services, on the instance's database (migrated by its start), as the CLI would.
    const db = database(own.url);
    const { client, clientSecret } = await registerClient(db, {
      name: 'Traced App',
      grantTypes: ['client_credentials', 'authorization_code'],
      redirectUris: [redirectUri],
    });
    assert.ok(clientSecret);
    const password = `pw-${randomBytes(12).toString('base64url')}`;
    const user = await createUser(db, { username: `user-${randomBytes(6).toString('hex')}`, password, email: 'traced@example.test', name: 'Traced' });

    const token = await form(`${instance.url}/oauth/token`, { grant_type: 'client_credentials' }, { authorization: basic(client.id, clientSecret) });
    assert.equal(token.status, 200);
    const tokenRequestId = token.headers.get('x-request-id');
    const { access_token: accessToken } = (await token.json()) as { access_token: string };

    // The caller's own trace (W3C Trace Context), which the introspection's span continues.
    const callerTrace = randomBytes(16).toString('hex');
    const callerSpan = randomBytes(8).toString('hex');
    const introspection = await form(
      `${instance.url}/oauth/introspect`,
      { token: accessToken, client_id: client.id, client_secret: clientSecret },
      { traceparent: `00-${callerTrace}-${callerSpan}-01` },
    );
    assert.equal(introspection.status, 200);
    assert.equal(((await introspection.json()) as { active: boolean }).active, true);
    const introspectionRequestId = introspection.headers.get('x-request-id');

    const state = randomBytes(16).toString('base64url');
    const { challenge } = await pkce();
    const query = new URLSearchParams({
      client_id: client.id,
      response_type: 'code',
      redirect_uri: redirectUri,
      scope: 'openid',
      state,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const browser = new TestBrowser(instance.url);
    const callback = await authorize(browser, new URL(`/oauth/authorize?${query}`, instance.url), { username: user.username, password });
    const code = callback.searchParams.get('code');
    assert.ok(code);
    assert.equal(callback.searchParams.get('state'), state);

    assert.equal(exports.length, 0, 'nothing is sent before the batch is due or the server stops');
    await instance.stop();
    stopped = true;
    assert.ok(exports.length >= 1, `the stop sent the spans still queued\n${instance.output()}`);
    const payloads = exports.map((e) => e.body).join('\n');
    for (const e of exports) {
      assert.equal(e.path, '/v1/traces');
      assert.match(String(e.headers['content-type']), /^application\/json/);
      assert.equal(e.headers.authorization, `Bearer ${collectorToken}`, 'OTEL_EXPORTER_OTLP_HEADERS');
    }
    const secrets: Record<string, string> = {
      'client secret': clientSecret,
      'access token': accessToken,
      state,
      'code challenge': challenge,
      'Basic credentials': basic(client.id, clientSecret),
      "the collector's token": collectorToken,
      password,
      'authorization code': code,
      ...Object.fromEntries(browser.cookieValues().map((value, i) => [`cookie ${i}`, value])),
    };
    for (const [what, value] of Object.entries(secrets)) assert.ok(!payloads.includes(value), `the ${what} is in the exported spans`);
    assert.doesNotMatch(payloads, /\/oauth\/authorize\?|response_type|redirect_uri|cookie|_session/i, 'no query string or cookie');

    const resources = exports.flatMap((e) => (JSON.parse(e.body) as OtlpPayload).resourceSpans);
    for (const resource of resources) assert.equal(attribute(resource.resource.attributes, 'service.name'), 'gatehouse');
    const spans = resources.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
    t.diagnostic(`${spans.length} spans: ${[...new Set(spans.map((s) => s.name))].join(', ')}`);
    const serverSpan = (name: string, requestId: string | null) => {
      const found = spans.filter((s) => s.name === name && s.kind === 2 && attribute(s.attributes, 'gatehouse.request_id') === requestId);
      assert.equal(found.length, 1, `one server span "${name}" for request ${requestId}: ${JSON.stringify(spans.map((s) => s.name))}`);
      return found[0];
    };
    const childrenOf = (parent: OtlpSpan) => spans.filter((s) => s.parentSpanId === parent.spanId);

    const tokenSpan = serverSpan('POST /oauth/token', tokenRequestId);
    assert.equal(attribute(tokenSpan.attributes, 'http.request.method'), 'POST');
    assert.equal(attribute(tokenSpan.attributes, 'http.route'), '/oauth/token');
    assert.equal(attribute(tokenSpan.attributes, 'http.response.status_code'), 200);
    assert.equal(attribute(tokenSpan.attributes, 'gatehouse.client_id'), client.id);
    assert.equal(tokenSpan.parentSpanId || undefined, undefined, 'a trace of its own');
    const tokenChildren = childrenOf(tokenSpan);
    assert.ok(
      tokenChildren.some((s) => s.name === 'upsert ClientCredentials' && s.kind === 3 && s.traceId === tokenSpan.traceId),
      `the token's storage call is a child span: ${JSON.stringify(tokenChildren.map((s) => s.name))}`,
    );
    for (const child of tokenChildren) {
      assert.equal(attribute(child.attributes, 'db.system.name'), own.url.startsWith('file:') ? 'sqlite' : 'postgresql');
      assert.ok(attribute(child.attributes, 'db.operation.name'));
    }

    const introspectionSpan = serverSpan('POST /oauth/introspect', introspectionRequestId);
    assert.equal(introspectionSpan.traceId, callerTrace, "the caller's trace goes on");
    assert.equal(introspectionSpan.parentSpanId, callerSpan);
    assert.equal(attribute(introspectionSpan.attributes, 'http.response.status_code'), 200);
    assert.equal(attribute(introspectionSpan.attributes, 'gatehouse.client_id'), client.id);
    assert.ok(
      childrenOf(introspectionSpan).some((s) => s.name === 'find ClientCredentials'),
      `the token is read in a child span: ${JSON.stringify(childrenOf(introspectionSpan).map((s) => s.name))}`,
    );

    const authorizationSpan = spans.find((s) => s.name === 'GET /oauth/authorize');
    assert.ok(authorizationSpan, 'the authorization request is named by its route alone');
    assert.equal(attribute(authorizationSpan.attributes, 'http.route'), '/oauth/authorize');
    assert.ok(
      spans.some((s) => s.name === 'GET /oauth/authorize/:uid'),
      'its resume after the sign-in and the consent',
    );
    const hashes = spans.filter((s) => s.name === 'argon2id verify');
    if (underNpmStart) {
      // npm start serves the pages in the request's span too: the password's verification is its child.
      const login = spans.find((s) => s.name === 'POST /interaction/:id/login');
      assert.ok(login, `the sign-in form's request: ${JSON.stringify(spans.map((s) => s.name))}`);
      assert.equal(hashes.length, 1);
      assert.equal(hashes[0].parentSpanId, login.spanId);
      assert.equal(hashes[0].traceId, login.traceId);
    } else {
      // Plain next start traces the provider's endpoints only: no request span, so no child either.
      assert.deepEqual(hashes, []);
    }

    // The request lines name their spans (lib/ops/request-observer.ts).
    const lines = instance
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    for (const [requestId, span] of [
      [tokenRequestId, tokenSpan],
      [introspectionRequestId, introspectionSpan],
    ] as const) {
      const line = lines.find((l) => l.msg === 'request' && l.request_id === requestId);
      assert.ok(line, `a request line for ${requestId}`);
      assert.equal(line.trace_id, span.traceId);
      assert.equal(line.span_id, span.spanId);
    }
    assert.ok(
      lines.some((l) => typeof l.msg === 'string' && l.msg.startsWith('traces go to http://127.0.0.1:')),
      'the start-up says where traces go',
    );
    assert.ok(
      lines.some((l) => l.msg === 'stopped'),
      `the stop closed what the server opened before it exited\n${instance.output()}`,
    );
    assert.ok(!instance.output().includes(collectorToken), "the collector's token is never logged");
  } finally {
    if (!stopped) await instance.stop();
  }
});
