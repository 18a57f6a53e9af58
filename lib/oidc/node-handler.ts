/**
 * The production mount of the provider. `npm start` runs a custom server
 * (scripts/server.mjs) that hands /oauth/* and /.well-known/* to this handler
 * ahead of Next's router, and everything else to Next. Next's route handlers
 * (app/oauth, app/.well-known, through lib/oidc/bridge.ts) stay the mount for
 * `next dev` and plain `next start`; the protocol tests run against both.
 *
 * Why: a request through a Next route handler costs ~1.3-1.7 ms more on this
 * hardware than the provider itself (bench/results/notes-2026-11-22.md), which
 * is most of a token or introspection request.
 *
 * The same rules as the bridge: host and scheme come from the issuer, never
 * from the request, and every answer carries an X-Request-Id.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type Provider from 'oidc-provider';
import { routes } from './configuration.ts';
import { bearerToken, introspectWithBearer } from './introspection.ts';
import { pinToIssuer } from './issuer-headers.ts';
import { logServerError, serverErrorResponse } from './server-errors.ts';

/** Answers a request, or returns false when it is not the provider's to answer (Next serves it). */
export type ProviderMount = (req: IncomingMessage, res: ServerResponse) => boolean;

/**
 * Where scripts/server.mjs waits for the mount: it puts { resolve, reject } here
 * before Next runs instrumentation.ts, which hands over the mount or the error
 * that stopped start-up. (Next resolves prepare() before register() finishes
 * when it is embedded in a custom server.)
 */
const MOUNT = Symbol.for('gatehouse.providerMount');
interface MountWaiter {
  resolve(mount: ProviderMount): void;
  reject(error: unknown): void;
}
const globalForMount = globalThis as typeof globalThis & { [MOUNT]?: MountWaiter };

/** The paths the provider owns, as the route handlers in app/oauth and app/.well-known do. */
export function isProviderPath(pathname: string): boolean {
  return pathname.startsWith('/oauth/') || pathname.startsWith('/.well-known/');
}

/**
 * Discovery and the JWKS are the same for every request while the process
 * runs (configuration and keys are loaded at start), and every relying party
 * and resource server fetches them. The provider's first 200 answer to a plain
 * GET is kept and replayed with a fresh X-Request-Id; a request with a query,
 * an Origin (CORS) or another method still goes to the provider.
 */
const staticDocuments = new Set(['/.well-known/openid-configuration', routes.jwks]);
const perRequestHeaders = new Set(['x-request-id', 'date', 'connection', 'keep-alive', 'transfer-encoding']);
interface Document {
  headers: OutgoingHttpHeaders;
  body: Buffer;
}

function replay(res: ServerResponse, document: Document, requestId: string): void {
  res.statusCode = 200;
  for (const [name, value] of Object.entries(document.headers)) if (value !== undefined) res.setHeader(name, value);
  res.setHeader('x-request-id', requestId);
  res.end(document.body);
}

/** Lets the provider answer, keeping a copy of a 200 answer. */
function keep(res: ServerResponse, store: (document: Document) => void): void {
  const chunks: Buffer[] = [];
  const { write, end } = res;
  const collect = (chunk: unknown, encoding: unknown) => {
    if (typeof chunk === 'string') chunks.push(Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'));
    else if (chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk));
  };
  res.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
    collect(chunk, rest[0]);
    return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  } as typeof res.write;
  res.end = function (this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
    if (typeof chunk !== 'function') collect(chunk, rest[0]);
    if (res.statusCode === 200) {
      const headers = Object.fromEntries(Object.entries(res.getHeaders()).filter(([name]) => !perRequestHeaders.has(name)));
      store({ headers, body: Buffer.concat(chunks) });
    }
    return (end as (...args: unknown[]) => ServerResponse).call(this, chunk, ...rest);
  } as typeof res.end;
}

export function createProviderMount(provider: Provider, issuerOrigin: string): ProviderMount {
  const issuer = new URL(issuerOrigin);
  const callback = provider.callback();
  const plainHttp = issuer.protocol === 'http:';
  const documents = new Map<string, Document>();

  return (req, res) => {
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const pathname = query === -1 ? url : url.slice(0, query);
    if (!isProviderPath(pathname)) return false;
    // A form-posted authorization request on a plain-http issuer becomes a 303 to
    // the same GET (lib/oidc/handler.ts): rare, and Next's handler already does it.
    if (plainHttp && req.method === 'POST' && pathname === routes.authorization) return false;

    const requestId = randomUUID();
    if (req.method === 'GET' && query === -1 && staticDocuments.has(pathname) && req.headers.origin === undefined) {
      const document = documents.get(pathname);
      if (document) {
        replay(res, document, requestId);
        return true;
      }
      keep(res, (kept) => documents.set(pathname, kept));
    }
    pinToIssuer(req.headers, issuer, requestId);
    if (req.method === 'POST' && pathname === routes.introspection) {
      const bearer = bearerToken(req.headers.authorization);
      if (bearer) {
        introspectBearer(provider, req, res, bearer, issuer, requestId);
        return true;
      }
    }
    callback(req, res);
    return true;
  };
}

/** Bearer introspection is answered by our own code (lib/oidc/introspection.ts), which speaks Fetch. */
function introspectBearer(provider: Provider, req: IncomingMessage, res: ServerResponse, bearer: string, issuer: URL, requestId: string): void {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string') headers.set(name, value);
  }
  const request = new Request(new URL(req.url ?? '/', issuer), {
    method: 'POST',
    headers,
    body: Readable.toWeb(req) as ReadableStream<Uint8Array>,
    duplex: 'half',
  } as RequestInit);
  introspectWithBearer(provider, request, bearer)
    .catch((error: unknown) => serverErrorResponse(requestId, error))
    .then(async (response) => {
      const body = Buffer.from(await response.arrayBuffer());
      response.headers.forEach((value, name) => res.setHeader(name, value));
      res.setHeader('x-request-id', requestId);
      res.setHeader('content-length', body.length);
      res.statusCode = response.status;
      res.end(body);
    })
    .catch((error: unknown) => {
      logServerError(requestId, error);
      res.destroy();
    });
}

/** Called once per process (instrumentation.ts): hands the mount to the custom server, if one is waiting. */
export function registerProviderMount(provider: Provider, issuer: string): void {
  globalForMount[MOUNT]?.resolve(createProviderMount(provider, issuer));
}

/** Tells a waiting custom server that start-up failed, so it exits instead of serving half an app. */
export function reportStartupFailure(error: unknown): void {
  globalForMount[MOUNT]?.reject(error);
}
