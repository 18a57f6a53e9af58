/**
 * Reads an application/x-www-form-urlencoded body for the two requests Gatehouse
 * answers itself (POST /oauth/authorize over plain http, Bearer introspection),
 * with the same limit oidc-provider applies to the bodies it parses (56 kB).
 */
import { oauthError } from './errors.ts';

export const FORM_BODY_LIMIT = 56 * 1024;

export async function readFormBody(request: Request): Promise<URLSearchParams | Response> {
  if (!(request.headers.get('content-type') ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded')) {
    return oauthError(400, 'invalid_request', 'only application/x-www-form-urlencoded content-type bodies are supported');
  }
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > FORM_BODY_LIMIT) return tooLarge();
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    for await (const chunk of request.body as unknown as AsyncIterable<Uint8Array>) {
      size += chunk.byteLength;
      if (size > FORM_BODY_LIMIT) return tooLarge();
      chunks.push(chunk);
    }
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

function tooLarge(): Response {
  return oauthError(400, 'invalid_request', `the request body is larger than ${FORM_BODY_LIMIT / 1024} kB`);
}
