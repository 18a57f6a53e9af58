// Where a request came from: the stamped TCP peer by default, X-Forwarded-For only behind TRUST_PROXY.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { clientIp, installPeerAddressStamp, normalizeIp, PEER_HEADER, REQUEST_ID_HEADER, requestContext, requestIdOf, stampFor } from './request-context.ts';

const headers = (entries: Record<string, string>) => new Headers(entries);

test('addresses are normalized: ports and brackets go, IPv4-mapped IPv6 becomes IPv4, garbage is null', () => {
  assert.equal(normalizeIp('203.0.113.7'), '203.0.113.7');
  assert.equal(normalizeIp(' 203.0.113.7:5123 '), '203.0.113.7');
  assert.equal(normalizeIp('::ffff:127.0.0.1'), '127.0.0.1');
  assert.equal(normalizeIp('[2001:DB8::1]:443'), '2001:db8::1');
  assert.equal(normalizeIp('2001:db8::1'), '2001:db8::1');
  for (const bad of ['', 'unknown', 'evil.example', '<script>', '1.2.3.4.5', undefined, null]) assert.equal(normalizeIp(bad), null, String(bad));
});

test('without a trusted proxy: the stamped peer, never X-Forwarded-For; a forged stamp reads as unknown', () => {
  assert.equal(clientIp(headers({ [PEER_HEADER]: stampFor('::ffff:198.51.100.4'), 'x-forwarded-for': '1.1.1.1' }), 0), '198.51.100.4');
  assert.equal(clientIp(headers({ 'x-forwarded-for': '1.1.1.1' }), 0), null);
  assert.equal(clientIp(headers({ [PEER_HEADER]: '00000000000000000000000000000000 1.1.1.1' }), 0), null);
});

test('a stamp is ours only with the whole nonce, byte for byte: truncated, extended, one character off or of another length, it reads as unknown', () => {
  const [nonce] = stampFor('203.0.113.7').split(' ');
  const last = nonce.at(-1) === 'a' ? 'b' : 'a';
  for (const forged of [nonce.slice(0, -1), `${nonce}0`, `${nonce.slice(0, -1)}${last}`, '', 'é'.repeat(nonce.length / 2)]) {
    assert.equal(clientIp(headers({ [PEER_HEADER]: `${forged} 1.1.1.1` }), 0), null, forged);
    assert.equal(requestIdOf(headers({ [PEER_HEADER]: `${forged} 1.1.1.1`, [REQUEST_ID_HEADER]: 'chosen-by-the-client' })), null, forged);
  }
  assert.equal(clientIp(headers({ [PEER_HEADER]: `${nonce} 1.1.1.1` }), 0), '1.1.1.1');
});

test('behind n trusted proxies: the n-th X-Forwarded-For entry from the right', () => {
  const h = headers({ [PEER_HEADER]: stampFor('10.0.0.2'), 'x-forwarded-for': '6.6.6.6, 203.0.113.9, 10.0.0.1' });
  assert.equal(clientIp(h, 1), '10.0.0.1');
  assert.equal(clientIp(h, 2), '203.0.113.9');
  assert.equal(clientIp(h, 9), '6.6.6.6', 'fewer entries than proxies: the leftmost');
  assert.equal(clientIp(headers({ [PEER_HEADER]: stampFor('10.0.0.2') }), 1), '10.0.0.2', 'no header at all: the peer');
});

test('the user agent is kept (capped), an empty one is null', () => {
  assert.deepEqual(requestContext(headers({ 'user-agent': 'x'.repeat(600) }), 0).userAgent?.length, 512);
  assert.equal(requestContext(headers({}), 0).userAgent, null);
});

test('the stamp is set on every request a Node server receives, over anything the client sent', async () => {
  installPeerAddressStamp();
  const server = createServer((req, res) => res.end(String(req.headers[PEER_HEADER])));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const stamp = await (await fetch(`http://127.0.0.1:${port}/`, { headers: { [PEER_HEADER]: 'forged 6.6.6.6' } })).text();
    assert.equal(clientIp(headers({ [PEER_HEADER]: stamp }), 0), '127.0.0.1');
  } finally {
    server.close();
  }
});

test('every request gets its own request id as it arrives, over any the client sent; an unstamped one has none we vouch for', async () => {
  installPeerAddressStamp();
  const server = createServer((req, res) => res.end(JSON.stringify({ stamp: req.headers[PEER_HEADER], id: req.headers[REQUEST_ID_HEADER] })));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const ask = async () => (await fetch(`http://127.0.0.1:${port}/`, { headers: { [REQUEST_ID_HEADER]: 'chosen-by-the-client' } })).json();
    const [first, second] = [await ask(), await ask()];
    const seen = requestContext(headers({ [PEER_HEADER]: first.stamp, [REQUEST_ID_HEADER]: first.id }), 0).requestId;
    assert.match(seen ?? '', /^[0-9a-f-]{36}$/);
    assert.notEqual(first.id, second.id);
    assert.equal(requestIdOf(headers({ [REQUEST_ID_HEADER]: 'chosen-by-the-client' })), null);
  } finally {
    server.close();
  }
});
