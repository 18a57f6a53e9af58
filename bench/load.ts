/**
 * The load rows. Each row is one kind of request, sent by autocannon at a fixed
 * number of connections; rows that spend a credential (code redemption) get a
 * pool prepared beforehand and exactly as many requests as the pool holds. The
 * full sign-in is a multi-request browser flow, so it runs as `connections`
 * concurrent flows instead of through autocannon.
 */
import autocannon, { type AutocannonRequest } from 'autocannon';
import { loadavg } from 'node:os';
import { basicAuth, codeRedemptionBody, federatedSignIn, fullSignIn, type Target } from './flows.ts';
import { DEVICE_CODE_GRANT, dpopNonce, dpopProof, type DpopKey } from './protocol-rows.ts';

export const ROWS = [
  'discovery',
  'jwks',
  'token',
  'token_jwt',
  'refresh_token',
  'client_credentials',
  'client_credentials_jwt',
  'introspection',
  'userinfo',
  'device_code',
  'dpop_client_credentials',
  'dpop_userinfo',
  'sign-in',
  'federated-sign-in',
] as const;
export type RowName = (typeof ROWS)[number];

export const ROW_LABELS: Record<RowName, string> = {
  discovery: 'discovery',
  jwks: 'JWKS',
  token: 'token (code + PKCE)',
  token_jwt: 'token (code + PKCE, JWT for an API)',
  refresh_token: 'refresh_token',
  client_credentials: 'client_credentials',
  client_credentials_jwt: 'client_credentials (JWT for an API)',
  introspection: 'introspection',
  userinfo: 'userinfo',
  device_code: 'device_code poll (pending)',
  dpop_client_credentials: 'token (client_credentials + DPoP)',
  dpop_userinfo: 'userinfo (DPoP)',
  'sign-in': 'full sign-in',
  'federated-sign-in': 'federated sign-in',
};

/**
 * Rows whose access token is a JWT (RFC 9068) for the bench's API (Target.api): each beside its opaque row, Gatehouse
 * only (the baseline registers no API), so the JWT's cost reads as the ratio to the opaque row of the same run.
 */
export const JWT_ROWS: Partial<Record<RowName, RowName>> = { token_jwt: 'token', client_credentials_jwt: 'client_credentials' };

/** Rows that redeem a code from the pool (minted before each measurement). */
export const CODE_ROWS: readonly RowName[] = ['token', 'token_jwt'];

/** Rows that are whole browser sign-ins (concurrent flows, not autocannon). */
export const SIGN_IN_ROWS: readonly RowName[] = ['sign-in', 'federated-sign-in'];

export interface Sample {
  row: RowName;
  server: string;
  connections: number;
  round: number;
  /** 2xx responses (or completed sign-ins; for device_code, the pending answers) per second. */
  rps: number;
  p50: number;
  p99: number;
  ok: number;
  failed: number;
  seconds: number;
  statuses: Record<string, number>;
  /** 1-minute load average when the sample ended (other work on the machine shows here). */
  load1: number;
  /** CPU ms spent serving this sample: the server's processes, its PostgreSQL backends, Redis (bench/cpu.ts). */
  cpu?: { server: number; database: number; redis: number };
}

/** Credentials the rows spend or reuse, per server. */
export interface Pools {
  codes: { code: string; verifier: string }[];
  refreshTokens: string[];
  accessTokens: string[];
  /** Device codes no one confirms: every poll is answered authorization_pending (or slow_down). */
  deviceCodes: string[];
  /** The key the DPoP rows prove, access tokens bound to it, and the issuer its proofs name (htu). */
  dpop: { key: DpopKey; tokens: string[]; issuer: string };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const round2 = (n: number) => Math.round(n * 100) / 100;

function summarize(
  row: RowName,
  target: Target,
  connections: number,
  round: number,
  latencies: number[],
  statuses: Record<string, number>,
  failed: number,
  seconds: number,
): Sample {
  latencies.sort((a, b) => a - b);
  return {
    row,
    server: target.name,
    connections,
    round,
    rps: Math.round((latencies.length / seconds) * 10) / 10,
    p50: round2(percentile(latencies, 50)),
    p99: round2(percentile(latencies, 99)),
    ok: latencies.length,
    failed,
    seconds: round2(seconds),
    statuses,
    load1: round2(loadavg()[0]),
  };
}

/** Cycles through a list (tokens that stay valid when used: access tokens, non-rotating refresh tokens). */
function cycle<T>(items: T[]): () => T {
  let i = 0;
  return () => items[i++ % items.length];
}

const form = 'application/x-www-form-urlencoded';

/**
 * Codes a token run needs beyond the requests it sends: autocannon builds each
 * connection's first request up front and one more after the last response.
 */
export const spareCodes = (connections: number) => connections + 8;

/** A form POST authenticated as the client, with a body made anew for each request. */
function clientPost(path: string, basic: string, body: () => string): AutocannonRequest {
  return { method: 'POST', path, headers: { 'content-type': form, authorization: basic }, setupRequest: (request) => ({ ...request, body: body() }) };
}

/** autocannon's request list for a row; `amount` is set when each request spends a pooled item. */
function requestsFor(
  row: Exclude<RowName, 'sign-in' | 'federated-sign-in'>,
  target: Target,
  pools: Pools,
  connections: number,
  nonce: string | undefined,
): { requests: AutocannonRequest[]; amount?: number } {
  const basic = basicAuth(target);
  switch (row) {
    case 'discovery':
      return { requests: [{ method: 'GET', path: '/.well-known/openid-configuration' }] };
    case 'jwks':
      return { requests: [{ method: 'GET', path: '/oauth/jwks' }] };
    case 'client_credentials':
      return {
        requests: [{ method: 'POST', path: '/oauth/token', headers: { 'content-type': form, authorization: basic }, body: 'grant_type=client_credentials' }],
      };
    case 'client_credentials_jwt': {
      const body = new URLSearchParams({ grant_type: 'client_credentials', resource: apiOf(target).resource, scope: apiOf(target).scope }).toString();
      return { requests: [{ method: 'POST', path: '/oauth/token', headers: { 'content-type': form, authorization: basic }, body }] };
    }
    case 'token':
    case 'token_jwt': {
      const codes = pools.codes.splice(0);
      // RFC 8707 §2.2: the resource again on the token request, as docs/authorization.md tells apps to.
      const resource = row === 'token_jwt' ? apiOf(target).resource : undefined;
      let i = 0;
      return {
        amount: Math.max(connections, codes.length - spareCodes(connections)),
        requests: [clientPost('/oauth/token', basic, () => codeRedemptionBody(target, codes[i++ % codes.length], resource))],
      };
    }
    case 'refresh_token': {
      const next = cycle(pools.refreshTokens);
      return {
        requests: [clientPost('/oauth/token', basic, () => new URLSearchParams({ grant_type: 'refresh_token', refresh_token: next() }).toString())],
      };
    }
    case 'introspection': {
      const next = cycle(pools.accessTokens);
      return {
        requests: [clientPost('/oauth/introspect', basic, () => new URLSearchParams({ token: next(), token_type_hint: 'access_token' }).toString())],
      };
    }
    case 'userinfo': {
      const next = cycle(pools.accessTokens);
      return {
        requests: [{ method: 'GET', path: '/oauth/userinfo', setupRequest: (request) => ({ ...request, headers: { authorization: `Bearer ${next()}` } }) }],
      };
    }
    case 'device_code': {
      const next = cycle(pools.deviceCodes);
      return { requests: [clientPost('/oauth/token', basic, () => new URLSearchParams({ grant_type: DEVICE_CODE_GRANT, device_code: next() }).toString())] };
    }
    case 'dpop_client_credentials': {
      const { key, issuer } = pools.dpop;
      const htu = new URL('/oauth/token', issuer).href;
      return {
        requests: [
          {
            method: 'POST',
            path: '/oauth/token',
            body: 'grant_type=client_credentials',
            setupRequest: (request) => ({
              ...request,
              headers: { 'content-type': form, authorization: basic, dpop: dpopProof(key, 'POST', htu, nonce) },
            }),
          },
        ],
      };
    }
    case 'dpop_userinfo': {
      const { key, issuer, tokens } = pools.dpop;
      const htu = new URL('/oauth/userinfo', issuer).href;
      const next = cycle(tokens);
      return {
        requests: [
          {
            method: 'GET',
            path: '/oauth/userinfo',
            setupRequest: (request) => {
              const token = next();
              return { ...request, headers: { authorization: `DPoP ${token}`, dpop: dpopProof(key, 'GET', htu, nonce, token) } };
            },
          },
        ],
      };
    }
  }
}

function apiOf(target: Target): NonNullable<Target['api']> {
  if (!target.api) throw new Error(`${target.name}: no API registered for the JWT rows`);
  return target.api;
}

/** A poll of a device code no one confirmed is answered 400 authorization_pending or slow_down (RFC 8628 §3.5): that is its success. */
const answered = (row: RowName, status: number) => (row === 'device_code' ? status === 400 : status >= 200 && status < 300);

export async function runRow(options: { row: RowName; target: Target; pools: Pools; connections: number; seconds: number; round: number }): Promise<Sample> {
  const { row, target, connections, seconds, round } = options;
  if (row === 'sign-in' || row === 'federated-sign-in') return signInRow(row, target, connections, seconds, round);

  // A fresh server nonce for the DPoP rows' proofs (valid for minutes; a run of a row lasts seconds).
  const nonce = row.startsWith('dpop_') ? await dpopNonce({ ...target, base: options.pools.dpop.issuer }, options.pools.dpop.key) : undefined;
  const { requests, amount } = requestsFor(row, target, options.pools, connections, nonce);
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let failed = 0;
  let firstError: string | undefined;
  for (const request of requests) {
    request.onResponse = (status, body) => {
      const pending = row === 'device_code' && status === 400 && /authorization_pending|slow_down/.test(body);
      if (status >= 300 && !pending) firstError ??= `${status} ${body.slice(0, 300)}`;
    };
  }
  // Several instances: autocannon gives connection i to url i mod n (and each its share of `amount`),
  // so the load is split evenly in one window and the latencies are merged; 1 connection loads the first only.
  const instance = autocannon({ url: target.bases ?? target.base, connections, duration: seconds, amount, timeout: 30, requests });
  // autocannon notices that `amount` is reached only on its 1 s tick: time ends at the last response instead.
  let last = performance.now();
  instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
    last = performance.now();
    statuses[status] = (statuses[status] ?? 0) + 1;
    if (answered(row, status)) latencies.push(ms);
    else failed++;
  });
  instance.on('reqError', () => {
    statuses.error = (statuses.error ?? 0) + 1;
    failed++;
  });
  const started = performance.now();
  await instance;
  if (firstError) console.warn(`  ${target.name} ${row}: ${failed} failed, first: ${firstError}`);
  return summarize(row, target, connections, round, latencies, statuses, failed, (last - started) / 1000);
}

/**
 * `connections` browsers, each signing in again and again with a fresh cookie jar until time is up: with a
 * password (sign-in), or through the connection to the bench's upstream (federated-sign-in).
 */
async function signInRow(row: 'sign-in' | 'federated-sign-in', target: Target, connections: number, seconds: number, round: number): Promise<Sample> {
  const flow = row === 'sign-in' ? fullSignIn : federatedSignIn;
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let failed = 0;
  let firstError: string | undefined;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < deadline) {
        const t0 = performance.now();
        try {
          await flow(target);
          latencies.push(performance.now() - t0);
          statuses['200'] = (statuses['200'] ?? 0) + 1;
        } catch (error) {
          failed++;
          firstError ??= error instanceof Error ? error.message : String(error);
          statuses.error = (statuses.error ?? 0) + 1;
        }
      }
    }),
  );
  if (firstError) console.warn(`  ${target.name} ${row} failures (${failed}), first: ${firstError.slice(0, 300)}`);
  return summarize(row, target, connections, round, latencies, statuses, failed, (performance.now() - started) / 1000);
}
