/**
 * The admin API's request bodies: JSON only (RFC 8259), UTF-8, at most
 * JSON_BODY_LIMIT bytes, an object at the top. Everything else is an
 * invalid_request before any use case sees it.
 */
import { InvalidRequest } from '../../platform/errors.ts';

export const JSON_BODY_LIMIT = 64 * 1024;

/** application/json, optionally with a charset that says UTF-8 (RFC 8259 §8.1 allows nothing else). */
export function isJsonContentType(value: string | null): boolean {
  if (!value) return false;
  const [type, ...params] = value
    .toLowerCase()
    .split(';')
    .map((part) => part.trim());
  if (type !== 'application/json') return false;
  return params.every((param) => !param.startsWith('charset=') || /^charset="?utf-8"?$/.test(param));
}

const tooLarge = () => new InvalidRequest(`the request body is larger than ${JSON_BODY_LIMIT / 1024} kB`);

/** The body's bytes, stopping as soon as they pass the limit (a Content-Length may be missing or wrong). */
export async function readLimited(request: Request): Promise<Uint8Array> {
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > JSON_BODY_LIMIT) throw tooLarge();
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    for await (const chunk of request.body as unknown as AsyncIterable<Uint8Array>) {
      size += chunk.byteLength;
      if (size > JSON_BODY_LIMIT) throw tooLarge();
      chunks.push(chunk);
    }
  }
  return Buffer.concat(chunks);
}

/** The request's JSON object; throws invalid_request for anything else. */
export async function readJsonBody(request: Request): Promise<Record<string, unknown>> {
  if (!isJsonContentType(request.headers.get('content-type'))) {
    throw new InvalidRequest('the request body must be application/json');
  }
  const bytes = await readLimited(request);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new InvalidRequest('the request body is not valid UTF-8');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // Never the parser's message: it quotes the body, which may hold a password.
    throw new InvalidRequest('the request body is not valid JSON');
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new InvalidRequest('the request body must be a JSON object');
  return value as Record<string, unknown>;
}
