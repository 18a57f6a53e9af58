/**
 * The one reader of application/x-www-form-urlencoded bodies for the requests
 * Gatehouse answers itself: the interaction forms (a Fetch Request), and inside
 * the provider's chain POST /oauth/authorize over plain http and Bearer
 * introspection (a Node request). A body larger than `limit` is refused with
 * 413 before it is read (Content-Length) or as soon as it passes the limit
 * (chunked); the rest is never read.
 */
import type { IncomingMessage } from 'node:http';
import { bodyTooLarge } from '../http/refused.ts';
import { BODY_LIMITS } from '../http/body-limits.ts';
import { oauthError } from './errors.ts';

/** 413 when the request declares a body larger than `limit` (RFC 9110 §8.6), before anything reads it. */
function tooLarge(contentLength: string | null | undefined, limit: number): Response | undefined {
  return Number(contentLength ?? 0) > limit ? bodyTooLarge(limit) : undefined;
}

/** A request body as the reader sees it, whichever transport carries it. */
interface FormSource {
  header(name: 'content-length' | 'content-type'): string | null | undefined;
  /** The next chunk, undefined at the end. */
  read(): Promise<Uint8Array | undefined>;
  /** Stops reading: what is left of the body is never read. */
  release(): Promise<unknown> | undefined;
}

async function readForm(source: FormSource, limit: number): Promise<URLSearchParams | Response> {
  // An empty body has no media type to check (a form without fields, a bare POST).
  if (source.header('content-length') === '0') return new URLSearchParams();
  if (!(source.header('content-type') ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded')) {
    return oauthError(400, 'invalid_request', 'only application/x-www-form-urlencoded content-type bodies are supported');
  }
  const refused = tooLarge(source.header('content-length'), limit);
  if (refused) return refused;
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (let chunk = await source.read(); chunk; chunk = await source.read()) {
      size += chunk.byteLength;
      if (size > limit) {
        await source.release()?.catch(() => undefined);
        return bodyTooLarge(limit);
      }
      chunks.push(chunk);
    }
  } catch {
    // The client went away or sent a broken chunked encoding.
    return oauthError(400, 'invalid_request', 'the request body could not be read');
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

export function readFormBody(request: Request, limit: number = BODY_LIMITS.provider): Promise<URLSearchParams | Response> {
  const reader = request.body?.getReader();
  return readForm(
    {
      header: (name) => request.headers.get(name),
      read: async () => {
        const next = await reader?.read();
        return next?.done === false ? next.value : undefined;
      },
      release: () => reader?.cancel(),
    },
    limit,
  );
}

/**
 * The same reader over the Node request of the provider's Koa chain. It reads
 * as oidc-provider reads (`iterator({ destroyOnReturn: false })`, which
 * lib/oidc/extensions/body-limit.ts also bounds): stopping early leaves the rest
 * to Node and keeps the connection (lib/http/refused.ts says why).
 */
export function readNodeFormBody(req: IncomingMessage, limit: number = BODY_LIMITS.provider): Promise<URLSearchParams | Response> {
  let iterator: AsyncIterator<Buffer> | undefined;
  return readForm(
    {
      header: (name) => {
        const value = req.headers[name];
        return Array.isArray(value) ? value.join(', ') : value;
      },
      read: async () => {
        iterator ??= req.iterator({ destroyOnReturn: false });
        const next = await iterator.next();
        return next.done ? undefined : next.value;
      },
      release: () => iterator?.return?.(),
    },
    limit,
  );
}
