/**
 * An experiment for issue 4, not a product path: Gatehouse's own provider
 * (createProvider() from lib/oidc/provider.ts: same configuration, same
 * database store, hashed client secrets, error conventions) served by node:http
 * directly, without Next.js. It is what a custom server sending /oauth/* and
 * /.well-known/* to the provider ahead of Next's router would serve, so the
 * table can tell Next's share of a request from the store's.
 *
 * It runs on the same database as a Gatehouse under test and with its ISSUER,
 * like a second instance: codes minted through Gatehouse redeem here.
 * Usage: DATABASE_URL=... ISSUER=... node --import tsx bench/direct-server.ts <port>
 */
import { createServer } from 'node:http';
import { env } from '../lib/config/env.ts';
import { createProvider } from '../lib/oidc/provider.ts';

const port = Number(process.argv[2]);
const issuer = new URL(env().ISSUER);
const provider = await createProvider();
const callback = provider.callback();
const forwarded = ['forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-port', 'x-real-ip'];

const server = createServer((req, res) => {
  // As the bridge does: host and scheme come from the issuer, never from the request.
  req.headers.host = issuer.host;
  for (const name of forwarded) delete req.headers[name];
  callback(req, res);
});
server.keepAliveTimeout = 60_000;
server.listen(port, '127.0.0.1', () => console.log(`direct provider listening on ${port}`));
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
}
