/**
 * The provider's request bodies, bounded with 413 on every mount. oidc-provider
 * stops reading at 56 kB itself but answers 400 ("failed to parse the request
 * body"), and only after reading that much of a body whose Content-Length
 * already said it was too large. Here a declared length over the limit is
 * refused before anything is read, and a chunked body is counted as the
 * provider reads it and refused as soon as it passes the limit (RFC 9110
 * §15.5.14). What is left of the body is never parsed (lib/http/refused.ts says
 * why the connection is not closed on it).
 */
import type { IncomingMessage } from 'node:http';
import type Provider from 'oidc-provider';
import { BODY_LIMITS } from '../../http/body-limits.ts';

type ReadableIterator = IncomingMessage['iterator'];

export function useBodyLimit(provider: Provider, limit: number = BODY_LIMITS.provider): void {
  provider.use(async (ctx, next) => {
    const declared = ctx.request.length;
    if (declared !== undefined && declared > limit) {
      refuse(ctx, limit);
      return;
    }
    let exceeded = false;
    if (declared === undefined && ctx.get('transfer-encoding')) {
      countAsRead(ctx.req, limit, () => {
        exceeded = true;
      });
    }
    await next();
    // The provider saw the read fail and answered 400; the cause was the size.
    if (exceeded) refuse(ctx, limit);
  });
}

function refuse(ctx: { status: number; body: unknown; set(name: string, value: string): void }, limit: number): void {
  ctx.status = 413;
  ctx.body = { error: 'invalid_request', error_description: `the request body is larger than ${limit} bytes` };
  ctx.set('Cache-Control', 'no-store');
}

/**
 * oidc-provider (pinned version) reads a body with `req.iterator()`; this one
 * fails after `limit` bytes. e2e/protocol/request-limits.test.ts fails if a
 * provider version reads it another way.
 */
function countAsRead(req: IncomingMessage, limit: number, onExceeded: () => void): void {
  const iterate = req.iterator.bind(req) as ReadableIterator;
  req.iterator = ((options) => bounded(iterate(options), limit, onExceeded)) as ReadableIterator;
}

async function* bounded(source: AsyncIterable<Buffer>, limit: number, onExceeded: () => void): AsyncGenerator<Buffer> {
  let size = 0;
  for await (const chunk of source) {
    size += chunk.length;
    if (size > limit) {
      onExceeded();
      throw new Error('request entity too large');
    }
    yield chunk;
  }
}
