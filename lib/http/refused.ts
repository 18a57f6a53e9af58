/**
 * The answers to a request body Gatehouse will not read. Not `Connection: close`:
 * Node would close the socket with the unread body still arriving, and the
 * client's TCP stack may then drop the answer on the reset. Node instead reads
 * what is left and throws it away (constant memory), or leaves it unread.
 */
import { env } from '../config/env.ts';
import { transportSecurity } from './security-headers.ts';

function refusal(status: number, description: string): Response {
  const headers = new Headers({ 'cache-control': 'no-store' });
  for (const [name, value] of transportSecurity(env().ISSUER)) headers.set(name, value);
  return Response.json({ error: 'invalid_request', error_description: description }, { status, headers });
}

/** RFC 9110 §15.5.14. */
export function bodyTooLarge(limit: number): Response {
  return refusal(413, `the request body is larger than ${limit} bytes`);
}

/** RFC 9110 §15.5.12: the size of a chunked body is known only once it has been read. */
export function lengthRequired(): Response {
  return refusal(411, 'a request body here needs a Content-Length header');
}

/** The route the rewrites name (app/http-error/[...reason]): `411`, or `413/<limit>`. */
export async function refusedBody(_request: Request, { params }: { params: Promise<{ reason: string[] }> }): Promise<Response> {
  const [status, limit, ...rest] = (await params).reason;
  if (status === '411' && limit === undefined) return lengthRequired();
  if (status === '413' && /^[1-9]\d{0,9}$/.test(limit ?? '') && rest.length === 0) return bodyTooLarge(Number(limit));
  return refusal(404, 'unrecognized route');
}
