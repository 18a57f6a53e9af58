/**
 * Discovery and the JWKS, replayed by the `npm start` mount (./node.ts) without
 * running the provider. They are the same for every request while the process
 * serves one provider (configuration and keys are read when it is built; new
 * signing keys build a new provider, whose mount starts a new set: ./node.ts), and every relying party and
 * resource server fetches them. The provider's first 200 answer to a plain GET is
 * kept, byte for byte, and replayed with a fresh X-Request-Id; a request with a
 * query, an Origin (CORS) or another method still goes to the provider.
 *
 * Why here and not in the provider's chain (lib/oidc/extensions/): what a replay
 * saves is the Koa chain itself (its context, the middleware, the router), so
 * inside that chain it would save little. Both mounts answer the same: this
 * replays what the provider answered. The mount behind Next's route handlers has
 * no cache because Next's own routing costs far more than the provider's answer.
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { routes } from '../configuration.ts';

const staticDocuments = new Set(['/.well-known/openid-configuration', routes.jwks]);
const perRequestHeaders = new Set(['x-request-id', 'date', 'connection', 'keep-alive', 'transfer-encoding']);

interface Document {
  headers: OutgoingHttpHeaders;
  body: Buffer;
}

export class StaticDocuments {
  readonly #documents = new Map<string, Document>();

  /**
   * Replays the document `pathname` names, if it is one and kept; otherwise lets
   * the provider answer, keeping its 200 answer. False when the provider must answer.
   */
  replay(req: IncomingMessage, res: ServerResponse, pathname: string, hasQuery: boolean, requestId: string): boolean {
    if (req.method !== 'GET' || hasQuery || !staticDocuments.has(pathname) || req.headers.origin !== undefined) return false;
    const document = this.#documents.get(pathname);
    if (!document) {
      keep(res, (kept) => this.#documents.set(pathname, kept));
      return false;
    }
    res.statusCode = 200;
    for (const [name, value] of Object.entries(document.headers)) if (value !== undefined) res.setHeader(name, value);
    res.setHeader('x-request-id', requestId);
    res.end(document.body);
    return true;
  }
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
