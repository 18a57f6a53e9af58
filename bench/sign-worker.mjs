// One core signing ID-token-sized JWTs with jose for `ms` milliseconds; posts how many it signed.
// Plain JavaScript so a worker thread loads it without a TypeScript loader.
import { importJWK, SignJWT } from 'jose';
import { parentPort, workerData } from 'node:worker_threads';

const { jwk, ms } = workerData;
const key = await importJWK(jwk, jwk.alg);
const claims = { sub: 'b8e6b1f0-5a55-4c1e-9d0e-3f9a3c1d2e4f', aud: 'client', nonce: 'n', at_hash: 'x'.repeat(22), sid: 's'.repeat(21) };
const sign = () =>
  new SignJWT(claims).setProtectedHeader({ alg: jwk.alg, kid: jwk.kid }).setIssuer('http://localhost').setIssuedAt().setExpirationTime('1h').sign(key);

for (let i = 0; i < 20; i++) await sign(); // warm up
let count = 0;
const started = performance.now();
while (performance.now() - started < ms) {
  await sign();
  count++;
}
parentPort.postMessage({ count, ms: performance.now() - started });
