/**
 * /scim/v2 (RFC 7644) over HTTP: off unless SCIM=on (then a plain 404, as for any path that does not exist);
 * the provisioning client's bearer token (lib/scim/tokens.ts) checked first, a wrong one counted against its
 * source address like a wrong link token (lib/platform/throttle.ts: the source waits, then 429); JSON bodies
 * of application/scim+json (or application/json) within the admin API's size limit; every answer
 * application/scim+json, errors as SCIM error bodies (lib/scim/errors.ts), never cached.
 */
import 'server-only';
import { randomUUID } from 'node:crypto';
import { requestContext, type AuditBy } from '../../audit/log.ts';
import { serverContext } from '../../context.ts';
import { bearerToken } from '../../http/bearer.ts';
import { logServerError, serverErrorDescription } from '../../oidc/server-errors.ts';
import { requestIdOf } from '../../platform/request-context.ts';
import { errorBody, invalidSyntax, ScimError, scimErrorOf } from '../../scim/errors.ts';
import { hasBody, serveScim } from '../../scim/protocol.ts';
import { authenticateScimToken, scimActor } from '../../scim/tokens.ts';
import { JSON_BODY_LIMIT, readLimited } from '../admin-api/http.ts';

export const SCIM_CONTENT_TYPE = 'application/scim+json';

type RouteContext = { params: Promise<{ path?: string[] }> };

function headers(requestId: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    'content-type': `${SCIM_CONTENT_TYPE}; charset=utf-8`,
    'cache-control': 'no-store',
    pragma: 'no-cache',
    'x-content-type-options': 'nosniff',
    'x-request-id': requestId,
    ...extra,
  };
}

const answer = (status: number, body: unknown, requestId: string, extra?: Record<string, string>) =>
  new Response(body === undefined ? null : JSON.stringify(body), { status, headers: headers(requestId, extra) });

/** application/scim+json (RFC 7644 §3.1) or application/json, UTF-8 if a charset is named. */
function isScimContentType(value: string | null): boolean {
  if (!value) return false;
  const [type, ...params] = value
    .toLowerCase()
    .split(';')
    .map((part) => part.trim());
  if (type !== SCIM_CONTENT_TYPE && type !== 'application/json') return false;
  return params.every((param) => !param.startsWith('charset=') || /^charset="?utf-8"?$/.test(param));
}

async function readBody(request: Request): Promise<unknown> {
  if (!isScimContentType(request.headers.get('content-type'))) throw invalidSyntax(`the body must be ${SCIM_CONTENT_TYPE}`);
  let bytes: Uint8Array;
  try {
    bytes = await readLimited(request);
  } catch {
    throw new ScimError(413, `the body is larger than ${JSON_BODY_LIMIT / 1024} kB`);
  }
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    // Never the parser's message: it quotes the body, which may hold a password.
    throw invalidSyntax('the body is not valid JSON');
  }
}

/** Who the request's token is: the provisioning client, or a ScimError (401, or 429 while its source waits). */
async function authenticate(request: Request) {
  const { db, throttle, now } = serverContext();
  const token = bearerToken(request.headers.get('authorization'));
  const challenge = { 'www-authenticate': 'Bearer realm="scim"' };
  if (!token) throw new ScimError(401, 'a SCIM token is required (Authorization: Bearer)', undefined, challenge);
  const client = await authenticateScimToken(db, token, now());
  if (client) return client;
  const { ip } = requestContext(request.headers);
  const check = await throttle.beforeLinkCheck(ip);
  if (!check.allowed) {
    throw new ScimError(429, 'too many wrong tokens from this address: try again later', undefined, { 'retry-after': String(check.retryAfterSeconds) });
  }
  await throttle.linkFailed(ip);
  throw new ScimError(401, 'the SCIM token is not valid (revoked, or never issued)', undefined, {
    'www-authenticate': 'Bearer realm="scim", error="invalid_token"',
  });
}

export async function scimRoute(request: Request, route: RouteContext): Promise<Response> {
  const server = serverContext();
  if (server.config.SCIM !== 'on')
    return new Response('Not found\n', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' } });
  const requestId = requestIdOf(request.headers) ?? randomUUID();
  try {
    const client = await authenticate(request);
    const by: AuditBy = { actor: scimActor(client), context: requestContext(request.headers) };
    const method = request.method.toUpperCase();
    const body = hasBody(method) ? await readBody(request) : undefined;
    const url = new URL(request.url);
    const result = await serveScim(
      { db: server.db, by, baseUrl: `${server.config.ISSUER.replace(/\/$/, '')}/scim/v2` },
      { method, segments: (await route.params).path ?? [], query: url.searchParams, body, ifMatch: request.headers.get('if-match') },
    );
    const extra: Record<string, string> = {
      ...(result.etag ? { etag: result.etag } : {}),
      ...(result.location ? { location: result.location } : {}),
    };
    // RFC 7644 §3.14: a GET with the current version in If-None-Match is answered 304 without the resource.
    const ifNoneMatch = request.headers.get('if-none-match');
    if (method === 'GET' && result.etag && ifNoneMatch?.split(',').some((tag) => tag.trim() === result.etag)) return answer(304, undefined, requestId, extra);
    return answer(result.status, result.body, requestId, extra);
  } catch (error) {
    const scim = scimErrorOf(error);
    if (scim) return answer(scim.status, errorBody(scim), requestId, scim.headers);
    logServerError(server.log, requestId, error, { route: 'scim' });
    return answer(500, errorBody(new ScimError(500, serverErrorDescription(requestId))), requestId);
  }
}
