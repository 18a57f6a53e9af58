/**
 * What the protocol-feature rows need (issue 26): device codes to poll, and DPoP proofs (RFC 9449) made per
 * request. autocannon builds a request synchronously (setupRequest), so a proof is signed here with node:crypto's
 * one-shot ES256 (P-1363 signature), not jose's async API. Every server is started with DEVICE_FLOW and DPOP on
 * (bench/servers.ts, bench/baseline-server.ts), which asks for a server nonce in every proof: one is fetched
 * before each run of a row (a proof without one is answered 400 use_dpop_nonce with the nonce to use).
 */
import { createHash, generateKeyPairSync, randomUUID, sign, type KeyObject } from 'node:crypto';
import { basicAuth, codeRedemptionBody, type Target } from './flows.ts';

export const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

const b64 = (value: string | Buffer) => Buffer.from(value).toString('base64url');

export interface DpopKey {
  privateKey: KeyObject;
  header: string;
}

export function dpopKey(): DpopKey {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const { kty, crv, x, y } = publicKey.export({ format: 'jwk' });
  return { privateKey, header: b64(JSON.stringify({ typ: 'dpop+jwt', alg: 'ES256', jwk: { kty, crv, x, y } })) };
}

/** RFC 9449 §4.2: a fresh proof for one request; `accessToken` adds its hash (ath) for a resource request. */
export function dpopProof(key: DpopKey, htm: string, htu: string, nonce: string | undefined, accessToken?: string): string {
  const payload = {
    jti: randomUUID(),
    htm,
    htu,
    iat: Math.floor(Date.now() / 1000),
    ...(nonce ? { nonce } : {}),
    ...(accessToken ? { ath: createHash('sha256').update(accessToken).digest('base64url') } : {}),
  };
  const input = `${key.header}.${b64(JSON.stringify(payload))}`;
  return `${input}.${sign('sha256', Buffer.from(input), { key: key.privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
}

/** The server's current DPoP nonce: what it answers a proof without one (RFC 9449 §8). */
export async function dpopNonce(target: Target, key: DpopKey): Promise<string> {
  const htu = new URL('/oauth/token', target.base).href;
  const response = await fetch(htu, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basicAuth(target), dpop: dpopProof(key, 'POST', htu, undefined) },
    body: 'grant_type=client_credentials',
  });
  const nonce = response.headers.get('dpop-nonce');
  if (!nonce) throw new Error(`${target.name}: no DPoP-Nonce (status ${response.status}: ${await response.text()})`);
  return nonce;
}

/** `count` device codes of the benchmark client, each waiting for a person (RFC 8628 §3.2). */
export async function deviceCodes(target: Target, count: number): Promise<string[]> {
  const codes: string[] = [];
  for (let i = 0; i < count; i++) {
    const response = await fetch(new URL('/oauth/device/auth', target.base), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basicAuth(target) },
      body: 'scope=openid',
    });
    const body = (await response.json()) as { device_code?: string };
    if (!body.device_code) throw new Error(`${target.name}: device authorization ${response.status} ${JSON.stringify(body)}`);
    codes.push(body.device_code);
  }
  return codes;
}

/** Codes redeemed with a proof of `key`: access tokens bound to it (token_type DPoP), for the userinfo row. */
export async function dpopBoundTokens(target: Target, key: DpopKey, codes: { code: string; verifier: string }[]): Promise<string[]> {
  const htu = new URL('/oauth/token', target.base).href;
  const nonce = await dpopNonce(target, key);
  const tokens: string[] = [];
  for (const code of codes) {
    const response = await fetch(htu, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basicAuth(target), dpop: dpopProof(key, 'POST', htu, nonce) },
      body: codeRedemptionBody(target, code),
    });
    const body = (await response.json()) as { access_token?: string; token_type?: string };
    if (body.token_type !== 'DPoP' || !body.access_token) throw new Error(`${target.name}: DPoP code redemption ${response.status} ${JSON.stringify(body)}`);
    tokens.push(body.access_token);
  }
  return tokens;
}
