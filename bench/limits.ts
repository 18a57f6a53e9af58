/**
 * What this machine can do at most, measured in the same run as the load rows:
 * argon2id verifications/s at Gatehouse's parameters (the hash of the benchmark
 * user, so exactly the parameters lib/platform/passwords.ts uses) on every core,
 * and JWT signatures/s per algorithm of the signing keys, one worker per core.
 */
import { verify } from '@node-rs/argon2';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

export interface Limits {
  cores: number;
  argon2id: { params: string; verificationsPerSecond: number; msPerVerification: number };
  jwt: Record<string, { signaturesPerSecond: number; perCore: number }>;
}

async function argon2Rate(passwordHash: string, password: string, ms: number, concurrency: number): Promise<number> {
  if (!(await verify(passwordHash, password))) throw new Error('the benchmark user hash does not verify');
  let count = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() - started < ms) {
        await verify(passwordHash, password);
        count++;
      }
    }),
  );
  return count / ((performance.now() - started) / 1000);
}

function signRate(jwk: Record<string, unknown>, ms: number, workers: number): Promise<number> {
  const url = new URL('./sign-worker.mjs', import.meta.url);
  return Promise.all(
    Array.from(
      { length: workers },
      () =>
        new Promise<number>((resolve, reject) => {
          const worker = new Worker(url, { workerData: { jwk, ms } });
          worker.once('message', (m: { count: number; ms: number }) => resolve(m.count / (m.ms / 1000)));
          worker.once('error', reject);
        }),
    ),
  ).then((rates) => rates.reduce((a, b) => a + b, 0));
}

export async function measureLimits(options: { passwordHash: string; password: string; jwks: Record<string, unknown>[]; ms: number }): Promise<Limits> {
  const cores = availableParallelism();
  const rate = await argon2Rate(options.passwordHash, options.password, options.ms, cores);
  const params = /\$argon2id\$v=\d+\$([^$]+)\$/.exec(options.passwordHash)?.[1] ?? 'unknown';
  const jwt: Limits['jwt'] = {};
  for (const jwk of options.jwks) {
    const alg = String(jwk.alg);
    if (jwt[alg]) continue;
    const all = await signRate(jwk, options.ms, cores);
    const one = await signRate(jwk, Math.max(500, options.ms / 2), 1);
    jwt[alg] = { signaturesPerSecond: Math.round(all), perCore: Math.round(one) };
  }
  return {
    cores,
    argon2id: { params, verificationsPerSecond: Math.round(rate * 10) / 10, msPerVerification: Math.round((cores / rate) * 10000) / 10 },
    jwt,
  };
}
