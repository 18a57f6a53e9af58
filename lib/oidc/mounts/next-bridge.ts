/**
 * The bridge between a Web `Request` (what Next.js route handlers receive) and
 * oidc-provider's Node handler, for ./next-route.ts. It builds an IncomingMessage
 * with host and scheme pinned to the issuer (lib/oidc/issuer-headers.ts), streams
 * the body in only as the provider reads it, and streams the response back,
 * keeping every Set-Cookie separate.
 */
import { randomUUID } from 'node:crypto';
import { IncomingMessage, ServerResponse, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import { Socket } from 'node:net';
import { PassThrough, Readable } from 'node:stream';
import type Provider from 'oidc-provider';
import { pinToIssuer } from '../issuer-headers.ts';
import { shareRequestFacts, type RequestFacts } from '../request-facts.ts';

type NodeHandler = ReturnType<Provider['callback']>;
/** Koa composes its middleware on every callback() call: do it once per provider. */
const handlers = new WeakMap<Provider, NodeHandler>();

export interface BridgeOptions {
  issuer: URL;
  requestId?: string;
  /** Filled in by the provider's chain (lib/oidc/extensions/request-client.ts) by the time the Response is returned. */
  facts?: RequestFacts;
}

/** Runs one request through the provider and returns its response. */
export async function callProvider(provider: Provider, request: Request, options: BridgeOptions): Promise<Response> {
  const requestId = options.requestId ?? randomUUID();
  const url = new URL(request.url);
  const req = incomingMessage(request, url, options.issuer, requestId);
  if (options.facts) shareRequestFacts(req, options.facts);
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
  const status = res.statusCode;
  const nullBody = status === 204 || status === 304 || request.method === 'HEAD';
  if (nullBody) body.resume();
  return new Response(nullBody ? null : (Readable.toWeb(body) as ReadableStream<Uint8Array>), { status, headers });
}

function incomingMessage(request: Request, url: URL, issuer: URL, requestId: string): IncomingMessage {
  const req = new IncomingMessage(new Socket());
  req.method = request.method;
  req.url = url.pathname + url.search;
  req.httpVersion = '1.1';
  req.httpVersionMajor = 1;
  req.httpVersionMinor = 1;

  const headers: IncomingHttpHeaders = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  pinToIssuer(headers, issuer, requestId);
  req.headers = headers;
  req.rawHeaders = Object.entries(headers).flatMap(([name, value]) => [name, String(value)]);

  if (request.body) {
    pull(request.body, req);
  } else {
    req.push(null);
  }
  req.complete = true;
  return req;
}

/**
 * Streams a Web body into the IncomingMessage as the provider reads it, one
 * chunk per read: a body the provider does not read (one it refuses as too
 * large, lib/oidc/extensions/body-limit.ts) is not read here either.
 */
function pull(source: ReadableStream<Uint8Array>, req: IncomingMessage): void {
  const reader = source.getReader();
  let reading = false;
  req._read = () => {
    if (reading) return;
    reading = true;
    reader.read().then(
      ({ done, value }) => {
        reading = false;
        req.push(done ? null : Buffer.from(value.buffer, value.byteOffset, value.byteLength));
      },
      (error: Error) => req.destroy(error),
    );
  };
  // Whatever is left when the answer is complete stays unread.
  req.once('close', () => void reader.cancel().catch(() => undefined));
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
