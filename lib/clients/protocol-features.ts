/**
 * The per-client protocol features' own rules (JAR keys, pairwise sectors), apart
 * from the registration schema in ./manage.ts that uses them.
 */
import { z } from 'zod';
import { InvalidRequest } from '../platform/errors.ts';

/** RFC 8628 §3.4's grant type: a device without a browser (a TV, a CLI) signs someone in through another. */
export const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

/**
 * Asymmetric algorithms only: a client's secret is stored hashed (lib/oidc/client-secret.ts), so it
 * cannot key an HMAC, and `none` is never accepted (RFC 9101 §10.2 leaves unsigned objects to the server).
 */
export const REQUEST_OBJECT_SIGNING_ALGS = ['ES256', 'PS256', 'RS256', 'EdDSA'] as const;

/** JWK members that only a private or symmetric key has (RFC 7518 §6.2.2, §6.3.2, §6.4.1). */
const privateMembers = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];

/** A JWK Set (RFC 7517 §5) of public keys, as JSON text: stored and shown as given, so an admin pastes it as the app publishes it. */
export const publicJwksSchema = z.string().superRefine((value, ctx) => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return void ctx.addIssue({ code: 'custom', message: 'The JWKS is not JSON', params: { code: 'jwks_not_json' } });
  }
  const keys = (parsed as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys) || keys.length === 0 || !keys.every((key) => key && typeof key === 'object' && typeof key.kty === 'string')) {
    return void ctx.addIssue({ code: 'custom', message: 'The JWKS needs a "keys" list of JWKs', params: { code: 'jwks_shape' } });
  }
  if (keys.some((key) => privateMembers.some((member) => member in key))) {
    ctx.addIssue({ code: 'custom', message: 'The JWKS must hold public keys only', params: { code: 'jwks_private' } });
  }
});

const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]']);

/** OIDC Core §8.1: an https URL (http only on loopback, as for redirect URIs, for development). */
export const sectorIdentifierUriSchema = z.string().refine(
  (value) => {
    const url = URL.parse(value);
    return Boolean(url && !url.hash && (url.protocol === 'https:' || (url.protocol === 'http:' && loopbackHosts.has(url.hostname))));
  },
  { message: 'The sector identifier URI must be an https URL without a fragment', params: { code: 'sector_uri_not_https' } },
);

/** Long enough for a slow host, short enough for an admin waiting on a form. */
const SECTOR_FETCH_TIMEOUT_MS = 5_000;
const SECTOR_MAX_BYTES = 64 * 1024;

/**
 * OIDC Core §8.1: the sector identifier URI must answer a JSON array holding every one of the
 * client's redirect URIs. Checked when the client is saved (the provider is told not to fetch it
 * again on every client load: lib/oidc/configuration.ts sectorIdentifierUriValidate).
 */
export async function checkSectorIdentifier(
  client: { subjectType: string; sectorIdentifierUri: string | null; redirectUris: string[] },
  fetchSector: typeof fetch = fetch,
): Promise<void> {
  if (client.subjectType !== 'pairwise' || !client.sectorIdentifierUri) return;
  const refuse = (message: string): never => {
    throw new InvalidRequest(`sectorIdentifierUri: ${message}`, { field: 'sectorIdentifierUri' });
  };
  let listed: unknown;
  try {
    const response = await fetchSector(client.sectorIdentifierUri, {
      headers: { accept: 'application/json' },
      redirect: 'error',
      signal: AbortSignal.timeout(SECTOR_FETCH_TIMEOUT_MS),
    });
    if (response.status !== 200) refuse(`the sector identifier URI answered ${response.status}, not 200`);
    const text = await response.text();
    if (text.length > SECTOR_MAX_BYTES) refuse('the sector identifier URI answered more than 64 KiB');
    listed = JSON.parse(text);
  } catch (error) {
    if (error instanceof InvalidRequest) throw error;
    refuse('the sector identifier URI could not be read as JSON');
  }
  if (!Array.isArray(listed) || !listed.every((entry) => typeof entry === 'string')) refuse('the sector identifier URI must answer a JSON array of URIs');
  const missing = client.redirectUris.filter((uri) => !(listed as string[]).includes(uri));
  if (missing.length) refuse(`the sector identifier URI does not list ${missing.join(', ')}`);
}
