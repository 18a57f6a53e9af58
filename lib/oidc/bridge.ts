/**
 * The bridge between a Web `Request` (what Next.js route handlers receive) and
 * oidc-provider's Node handler. It builds an IncomingMessage whose socket tells
 * Koa whether the connection is encrypted, streams the body in without reading
 * it first, and streams the response back, keeping every Set-Cookie separate.
 *
 * Host and scheme come from the configured issuer, never from the request:
 * `next start` passes client-sent Host and X-Forwarded-* through, and a spoofed
 * value must not change a URL in discovery or a redirect.
 */
import { randomUUID } from 'node:crypto';
import { IncomingMessage, ServerResponse, type OutgoingHttpHeaders } from 'node:http';
import { Socket } from 'node:net';
import { PassThrough, Readable } from 'node:stream';
import type Provider from 'oidc-provider';

const droppedRequestHeaders = new Set(['host', 'forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-port', 'x-real-ip', 'x-request-id']);

type NodeHandler = ReturnType<Provider['callback']>;
/** Koa composes its middleware on every callback() call: do it once per provider. */
const handlers = new WeakMap<Provider, NodeHandler>();

export interface BridgeOptions {
  issuer: URL;
  requestId?: string;
}

/** Runs one request through the provider and returns its response. */
export async function callProvider(provider: Provider, request: Request, options: BridgeOptions): Promise<Response> {
  const requestId = options.requestId ?? randomUUID();
  const url = new URL(request.url);
  const req = incomingMessage(request, url, options.issuer, requestId);
  const res = new ServerResponse(req);
  const body = new PassThrough();

  const headersReady = new Promise<void>((resolve) => {
    const write = (chunk: unknown, encoding?: unknown) => {
      resolve();
      if (chunk !== undefined && chunk !== null && typeof chunk !== 'function') {
        body.write(typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8') : (chunk as Buffer));
      }
    };
    res.write = ((chunk: unknown, encoding?: unknown, callback?: () => void) => {
      write(chunk, encoding);
      if (typeof encoding === 'function') (encoding as () => void)();
      else callback?.();
      return true;
    }) as typeof res.write;
    res.end = ((chunk?: unknown, encoding?: unknown, callback?: () => void) => {
      write(typeof chunk === 'function' ? undefined : chunk, encoding);
      body.end();
      res.finished = true; // what Koa's ctx.writable and on-finished look at
      res.emit('finish');
      const done = [chunk, encoding, callback].find((arg) => typeof arg === 'function') as (() => void) | undefined;
      done?.();
      return res;
    }) as typeof res.end;
  });

  let handler = handlers.get(provider);
  if (!handler) {
    handler = provider.callback();
    handlers.set(provider, handler);
  }
  handler(req, res);
  await headersReady;

  const headers = toHeaders(res.getHeaders());
  headers.set('x-request-id', requestId);
  const status = res.statusCode;
  // RFC 9110 §15.5.2: every 401 names a scheme. The provider adds one only when
  // the client used the Authorization header; credentials in the body get Basic too.
  if (status === 401 && !headers.has('www-authenticate')) {
    headers.set('www-authenticate', `Basic realm="${options.issuer.origin}"`);
  }
  const nullBody = status === 204 || status === 304 || request.method === 'HEAD';
  if (nullBody) body.resume();
  return new Response(nullBody ? null : (Readable.toWeb(body) as ReadableStream<Uint8Array>), { status, headers });
}

function incomingMessage(request: Request, url: URL, issuer: URL, requestId: string): IncomingMessage {
  const socket = new Socket();
  // Koa decides ctx.secure (and so cookie flags and URL scheme) from this.
  Object.defineProperty(socket, 'encrypted', { value: issuer.protocol === 'https:' });
  const req = new IncomingMessage(socket);
  req.method = request.method;
  req.url = url.pathname + url.search;
  req.httpVersion = '1.1';
  req.httpVersionMajor = 1;
  req.httpVersionMinor = 1;

  const headers: Record<string, string | string[]> = {};
  const rawHeaders: string[] = [];
  request.headers.forEach((value, name) => {
    if (droppedRequestHeaders.has(name)) return;
    headers[name] = value;
    rawHeaders.push(name, value);
  });
  headers.host = issuer.host;
  headers['x-request-id'] = requestId;
  rawHeaders.push('host', issuer.host, 'x-request-id', requestId);
  req.headers = headers;
  req.rawHeaders = rawHeaders;

  if (request.body) {
    pump(request.body, req);
  } else {
    req.push(null);
  }
  req.complete = true;
  return req;
}

/** Streams a Web body into the IncomingMessage as the provider reads it. */
function pump(source: ReadableStream<Uint8Array>, req: IncomingMessage): void {
  const reader = source.getReader();
  const next = (): void => {
    reader.read().then(
      ({ done, value }) => {
        if (done) {
          req.push(null);
          return;
        }
        req.push(Buffer.from(value.buffer, value.byteOffset, value.byteLength));
        next();
      },
      (error: Error) => req.destroy(error),
    );
  };
  next();
}

function toHeaders(outgoing: OutgoingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(outgoing)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) value.forEach((v) => headers.append(name, v));
    else headers.set(name, String(value));
  }
  return headers;
}
