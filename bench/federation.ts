/**
 * The federated sign-in row's upstream: the bare oidc-provider as the federation tests run it
 * (e2e/support/upstreams.ts: its development login and consent pages, on 127.0.0.2), started in the bench's
 * own process, and on each Gatehouse a connection to it offered to the benchmark client. The upstream
 * person is created on their first sign-in (just in time) and found by issuer and subject afterwards,
 * so the measured sign-ins are those of a returning person.
 */
import { randomBytes } from 'node:crypto';
import { startBareProvider } from '../e2e/support/upstreams.ts';
import { database } from '../lib/db/database.ts';
import { createConnection } from '../lib/federation/manage.ts';
import type { Context, Gatehouse } from './setup.ts';

const SLUG = 'bench-upstream';
const LOGIN = 'bench-federated';

/** Starts the upstream and connects `gatehouses` to it (their targets get `federation`); stopped at cleanup. */
export async function startFederation(ctx: Context, gatehouses: Gatehouse[]): Promise<void> {
  const secret = randomBytes(24).toString('base64url');
  const upstream = await startBareProvider(
    gatehouses.map((g) => new URL('/federation/callback', g.target.base).toString()),
    secret,
  );
  ctx.cleanups.push(upstream.close);
  upstream.accounts.set(LOGIN, { email: `${LOGIN}@upstream.example`, email_verified: true, name: 'Federated Bench Person', preferred_username: LOGIN });
  for (const g of gatehouses) {
    await createConnection(database(g.databaseUrl), {
      slug: SLUG,
      displayName: 'Bench upstream',
      issuer: upstream.issuer,
      clientId: 'gatehouse',
      clientSecret: secret,
      clientIds: [g.target.client.id],
      jitCreate: true,
    });
    g.target.federation = { slug: SLUG, login: LOGIN };
  }
  ctx.log(`upstream (bare oidc-provider) on ${upstream.issuer}: a connection on ${gatehouses.map((g) => g.target.name).join(', ')}`);
}
