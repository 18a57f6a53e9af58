/**
 * Where a request came from, for the audit log: the client's IP address and
 * user agent.
 *
 * Next.js gives route handlers and server actions the request's headers but
 * not its socket. `next start` fills in X-Forwarded-For with the peer address
 * only when the request has none (next/dist/server/base-server.js: `??=`), so without a proxy
 * that header is whatever the client chose to send. Instead, the server stamps
 * every request with its TCP peer address as it arrives (Node's
 * `http.server.request.start` diagnostics channel, installed from
 * the start-up), in a header that also carries a per-process random
 * nonce: a client sending that header itself cannot match the nonce, so a
 * forged value reads as "unknown", never as an address.
 *
 * TRUST_PROXY=n (lib/config/env.ts) says n reverse proxies append to
 * X-Forwarded-For; the client is then the n-th address from its right end.
 */
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { subscribe } from 'node:diagnostics_channel';
import type { IncomingMessage } from 'node:http';
import { isIP, type Socket } from 'node:net';
import { env } from '../config/env.ts';
import { processShared } from './process.ts';

export interface RequestContext {
  ip: string | null;
  userAgent: string | null;
  /** The X-Request-Id the answer carries, for log lines about this request (a mail that could not be sent). */
  requestId?: string | null;
}

/** Anything with a `get` like Fetch's Headers (and Next's `headers()`). */
export interface HeaderSource {
  get(name: string): string | null;
}

export const PEER_HEADER = 'x-gatehouse-peer';
/** Given to every request as it arrives (over anything the client sent), so every log line about it can name it. */
export const REQUEST_ID_HEADER = 'x-request-id';
const MAX_USER_AGENT = 512;

/** Stamps every incoming request with its peer address. Idempotent; call once per process before serving. */
export function installPeerAddressStamp(): void {
  if (processShared().peerNonce) return;
  const nonce = randomBytes(16).toString('hex');
  processShared().peerNonce = nonce;
  subscribe('http.server.request.start', (message) => {
    const { request, socket } = message as { request: IncomingMessage; socket: Socket };
    // Overwrites anything the client sent under these names.
    request.headers[PEER_HEADER] = `${nonce} ${socket.remoteAddress ?? ''}`;
    request.headers[REQUEST_ID_HEADER] = randomUUID();
  });
}

/** An address as written in a header: bare IPv4/IPv6, optionally with a port or brackets; IPv4-mapped IPv6 as IPv4. */
export function normalizeIp(value: string | undefined | null): string | null {
  let text = (value ?? '').trim();
  if (!text) return null;
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(text);
  if (bracketed) text = bracketed[1];
  else if (/^[\d.]+:\d+$/.test(text)) text = text.slice(0, text.lastIndexOf(':'));
  if (text.toLowerCase().startsWith('::ffff:') && isIP(text.slice(7)) === 4) text = text.slice(7);
  return isIP(text) ? text.toLowerCase() : null;
}

/** The stamped peer address, or null when the stamp is missing or not ours. */
function peerAddress(headers: HeaderSource): string | null {
  const nonce = processShared().peerNonce;
  const stamp = headers.get(PEER_HEADER);
  if (!nonce || !stamp) return null;
  const [presented, address] = stamp.split(' ');
  return sameNonce(presented, nonce) ? normalizeIp(address) : null;
}

/**
 * Compared in constant time: a client probing the header byte by byte learns nothing from
 * how long a refusal takes. The lengths may differ (anything can be sent); ours is public.
 */
function sameNonce(presented: string | undefined, nonce: string): boolean {
  const [a, b] = [Buffer.from(presented ?? ''), Buffer.from(nonce)];
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The client's address per TRUST_PROXY: the peer itself, or the n-th X-Forwarded-For entry from the right. */
export function clientIp(headers: HeaderSource, trustedProxies: number = env().TRUST_PROXY): string | null {
  if (trustedProxies === 0) return peerAddress(headers);
  const chain = (headers.get('x-forwarded-for') ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (chain.length === 0) return peerAddress(headers);
  return normalizeIp(chain[Math.max(0, chain.length - trustedProxies)]);
}

/** The request id the stamp gave this request; null when the stamp is missing or not ours (then the header is the client's). */
export function requestIdOf(headers: HeaderSource): string | null {
  return stamped(headers) ? headers.get(REQUEST_ID_HEADER) : null;
}

const stamped = (headers: HeaderSource) => {
  const nonce = processShared().peerNonce;
  return nonce !== undefined && sameNonce(headers.get(PEER_HEADER)?.split(' ')[0], nonce);
};

export function requestContext(headers: HeaderSource, trustedProxies?: number): RequestContext {
  const userAgent = headers.get('user-agent')?.trim().slice(0, MAX_USER_AGENT) || null;
  return { ip: clientIp(headers, trustedProxies), userAgent, requestId: requestIdOf(headers) };
}

/** For tests: the header value the stamp would have set for `address`. */
export function stampFor(address: string): string {
  if (!processShared().peerNonce) installPeerAddressStamp();
  return `${processShared().peerNonce} ${address}`;
}
