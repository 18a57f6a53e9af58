// The production server behind `npm start` (Next's custom-server pattern). The
// provider it serves ahead of Next is the one instance that Next's
// instrumentation.ts created and registered (lib/oidc/mounts/node.ts).
//
// Usage: node --max-old-space-size=256 scripts/server.mjs [-p PORT] [-H HOSTNAME]
//   (PORT from the environment, else 3000; all interfaces unless -H). The Node flags
//   are scripts/server-node-flags.json's, which `npm start`, the tests and the
//   benchmark all use: with V8's default limit the heap grows under load for no more
//   requests per second (README, *Configuration*).
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';

process.env.NODE_ENV = 'production';
// What `next start` sets (next/dist/bin/next); instrumentation.ts registers only under it.
process.env.NEXT_RUNTIME = 'nodejs';
process.env.NEXT_TELEMETRY_DISABLED ??= '1';

const { values } = parseArgs({
  options: { port: { type: 'string', short: 'p' }, hostname: { type: 'string', short: 'H' } },
  strict: true,
});
const port = Number(values.port ?? process.env.PORT ?? 3000);
const hostname = values.hostname;
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error(`[gatehouse] invalid port: ${values.port ?? process.env.PORT}`);
  process.exit(2);
}

// instrumentation.ts (migrations, the first admin, the provider) hands over the
// provider's mount here when it is done (lib/oidc/mounts/node.ts).
const mountReady = new Promise((resolve, reject) => {
  globalThis[Symbol.for('gatehouse.providerMount')] = { resolve, reject };
  setTimeout(() => reject(new Error('instrumentation.ts did not register the provider within 120 s; is the build current?')), 120_000).unref();
});

const { default: next } = await import('next');
const app = next({ dev: false, dir: process.cwd(), hostname: hostname ?? 'localhost', port });
const handleWithNext = app.getRequestHandler();
let mount;
try {
  await app.prepare();
  mount = await mountReady;
} catch (error) {
  console.error('[gatehouse] start-up failed:', error instanceof Error ? error.message : error);
  process.exit(1);
}

const server = createServer((req, res) => {
  if (!mount(req, res)) handleWithNext(req, res);
});
// As `next start`: idle keep-alive connections stay open past a load balancer's typical 60 s.
server.keepAliveTimeout = 65_000;
server.listen(port, hostname, () => {
  const { address, port: bound } = server.address();
  console.log(`[gatehouse] listening on ${address.includes(':') ? `[${address}]` : address}:${bound}`);
});

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    server.close(() => app.close().finally(() => process.exit(0)));
    server.closeIdleConnections();
    setTimeout(() => process.exit(0), 10_000).unref();
  });
}
