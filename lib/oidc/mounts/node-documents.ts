/**
 * Discovery and the JWKS, replayed by the `npm start` mount (./node.ts) without
 * running the provider. They are the same for every request while the process
 * serves one provider (configuration and keys are read when it is built; new
 * signing keys build a new provider, whose mount starts a new set: ./node.ts), and every relying party and
 * resource server fetches them. The provider's first 200 answer to a plain GET is
 * kept, byte for byte, and replayed with a fresh X-Request-Id; a request with a
 * query, an Origin (CORS) or another method still goes to the provider.
 *
 * The discovery document is kept only DISCOVERY_KEPT_MS: its claims_supported
 * carries the clients' mapped claim names, which admins change at any time from
 * any instance or the CLI (lib/oidc/mapped-claims.ts); the JWKS for as long as
 * the provider serves.
 *
 * Why here and not in the provider's chain (lib/oidc/extensions/): what a replay
 * saves is the Koa chain itself (its context, the middleware, the router), so
 * inside that chain it would save little. Both mounts answer the same: this
 * replays what the provider answered. The mount behind Next's route handlers has
 * no cache because Next's own routing costs far more than the provider's answer.
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { routes } from '../configuration.ts';

/** How long a replayed document is kept: a change to a claim mapping shows in discovery this much later at most. */
export const DISCOVERY_KEPT_MS = 5_000;
const keptFor = new Map<string, number>([
  ['/.well-known/openid-configuration', DISCOVERY_KEPT_MS],
  [routes.jwks, Number.POSITIVE_INFINITY],
]);
const perRequestHeaders = new Set(['x-request-id', 'date', 'connection', 'keep-alive', 'transfer-encoding']);

interface Document {
  headers: OutgoingHttpHeaders;
  body: Buffer;
  keptUntil: number;
}

export class StaticDocuments {
  readonly #documents = new Map<string, Document>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /**
   * Replays the document `pathname` names, if it is one and kept; otherwise lets
   * the provider answer, keeping its 200 answer. False when the provider must answer.
   */
  replay(req: IncomingMessage, res: ServerResponse, pathname: string, hasQuery: boolean, requestId: string): boolean {
    const keepFor = keptFor.get(pathname);
    if (req.method !== 'GET' || hasQuery || keepFor === undefined || req.headers.origin !== undefined) return false;
    const document = this.#documents.get(pathname);
    if (!document || document.keptUntil <= this.#now()) {
      const keptUntil = this.#now() + keepFor;
      keep(res, (kept) => this.#documents.set(pathname, { ...kept, keptUntil }));
      return false;
    }
    res.statusCode = 200;
    for (const [name, value] of Object.entries(document.headers)) if (value !== undefined) res.setHeader(name, value);
    res.setHeader('x-request-id', requestId);
    res.end(document.body);
    return true;
  }
}

/**
 * Lets the provider answer, keeping a copy of a 200 answer once it has been sent whole ('finish'): an answer
 * with no body, or fewer bytes than its Content-Length, is never kept, so one bad answer is not replayed to
 * every client for DISCOVERY_KEPT_MS (a CI run's restarted instance answered discovery 200 with an empty body,
 * again when asked again).
 */
function keep(res: ServerResponse, store: (document: Omit<Document, 'keptUntil'>) => void): void {
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
    return (end as (...args: unknown[]) => ServerResponse).call(this, chunk, ...rest);
  } as typeof res.end;
  res.once('finish', () => {
    const body = Buffer.concat(chunks);
    const declared = res.getHeader('content-length');
    if (res.statusCode !== 200 || body.length === 0 || (declared !== undefined && Number(declared) !== body.length)) return;
    const headers = Object.fromEntries(Object.entries(res.getHeaders()).filter(([name]) => !perRequestHeaders.has(name)));
    store({ headers, body });
  });
}
