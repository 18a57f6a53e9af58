// The npm start mount's replay of discovery and the JWKS (./node-documents.ts): discovery is answered by the provider
// again once DISCOVERY_KEPT_MS have passed, so a claim mapping made anywhere reaches claims_supported; the JWKS is
// replayed for as long as the provider serves.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, test } from 'node:test';
import { routes } from '../configuration.ts';
import { DISCOVERY_KEPT_MS, StaticDocuments } from './node-documents.ts';

let now = 1_000_000;
let answered = 0;
/** The stand-in's next answers are 200 with no body (a provider answering badly), as many as this says. */
let emptyAnswers = 0;
const documents = new StaticDocuments(() => now);
// Stands in for the provider: every answer it gives itself is a new body.
const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (documents.replay(req, res, url.pathname, url.search !== '', 'request-id')) return;
  answered++;
  res.setHeader('content-type', 'application/json');
  if (emptyAnswers > 0) {
    emptyAnswers--;
    return res.end();
  }
  res.end(JSON.stringify({ answer: answered }));
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
after(() => server.close());
const get = async (path: string) => (await (await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`)).json()) as { answer: number };

test('discovery is replayed for DISCOVERY_KEPT_MS, then answered again; the JWKS is kept', async () => {
  const discovery = '/.well-known/openid-configuration';
  const first = await get(discovery);
  assert.deepEqual(await get(discovery), first, 'replayed');
  now += DISCOVERY_KEPT_MS - 1;
  assert.deepEqual(await get(discovery), first, 'still replayed just before it expires');
  now += 1;
  const renewed = await get(discovery);
  assert.notDeepEqual(renewed, first, 'answered again once expired');
  assert.deepEqual(await get(discovery), renewed, 'and the new answer replayed');

  const jwks = await get(routes.jwks);
  now += 24 * 3600 * 1000;
  assert.deepEqual(await get(routes.jwks), jwks, 'the JWKS outlives any such age');
});

test('an answer with no body is passed on, never kept: the next request is answered by the provider again', async () => {
  now += 24 * 3600 * 1000;
  const discovery = `http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/openid-configuration`;
  emptyAnswers = 1;
  assert.equal(await (await fetch(discovery)).text(), '');
  const before = answered;
  const next = (await (await fetch(discovery)).json()) as { answer: number };
  assert.equal(next.answer, before + 1, 'answered by the provider, not a replay of the empty answer');
  assert.deepEqual(await get('/.well-known/openid-configuration'), next, 'and that whole answer replayed');
});
