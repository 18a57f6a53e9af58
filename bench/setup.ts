/**
 * Setting up a run: Gatehouse on a fresh database (its client and user created
 * through the use cases, as the CLI does), the baseline and `next start`
 * configured from it, a throwaway PostgreSQL schema, and the browsers and
 * tokens the rows start from.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { env } from '../lib/config/env.ts';
import { workerCount } from '../lib/config/workers.mjs';
import { findClientMetadata } from '../lib/clients/repository.ts';
import { closeDatabase, database, type Database } from '../lib/db/database.ts';
import { splitSchema } from '../lib/db/sql.ts';
import { listActiveSigningKeys } from '../lib/db/secrets.ts';
import { findAccount, findCredentials } from '../lib/users/repository.ts';
import { registerClient } from '../lib/clients/manage.ts';
import { createUser } from '../lib/users/manage.ts';
import { addRolePermission, assignRole, createApi, createRole, grantClientPermission } from '../lib/authorization/manage.ts';
import { findApiByIdentifier } from '../lib/authorization/repository.ts';
import type { BaselineConfig } from './baseline-server.ts';
import { authorize, basicAuth, Browser, mintCodes, pool, redeem, type Target } from './flows.ts';
import type { Pools } from './load.ts';
import { DEVICE_CODE_GRANT, deviceCodes, dpopBoundTokens, dpopKey } from './protocol-rows.ts';
import { freePort, startBaseline, startGatehouse, startNextStart, type Server } from './servers.ts';

/** What the run owns: its temp folder, the servers it started, what to undo at the end. */
export interface Context {
  work: string;
  nodeArgs?: string[];
  servers: Server[];
  cleanups: (() => Promise<void>)[];
  log: (line: string) => void;
}

const REDIRECT_URI = 'http://127.0.0.1:9/callback';
const SCOPE = 'openid profile email';

export interface Gatehouse {
  /** The (first) instance: its origin is the issuer. */
  server: Server;
  /** Its worker processes (WORKERS), when more than one: the `-shipped` configurations. */
  workers?: number;
  /** Further instances on the same database, Redis namespace and issuer (postgresql-redis-x2). */
  replicas: Server[];
  target: Target;
  restartMs: number;
  databaseUrl: string;
}

/**
 * Gatehouse on a fresh database (with `redisUrl`: its short-lived artifacts in Redis; with `cwd`,
 * another checkout's build): first start (migrations, keys, admin), the benchmark's client and
 * user, then a restart. With `instances` > 1, as many processes on that database, Redis namespace
 * and issuer, each on a port of its own: the rows split their connections across them (Target.bases).
 * `workers`: WORKERS (`auto` for the `-shipped` configurations: `npm start` as shipped); one process otherwise.
 */
export async function startGatehouseOn(
  ctx: Context,
  name: string,
  databaseUrl: string,
  { redisUrl, cwd, instances = 1, workers }: { redisUrl?: string; cwd?: string; instances?: number; workers?: string } = {},
): Promise<Gatehouse> {
  const adminPassword = randomBytes(18).toString('base64url');
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const start = (at = port, logFile = `${name}.log`) =>
    startGatehouse({ name, port: at, issuer, databaseUrl, redisUrl, adminPassword, logFile: join(ctx.work, logFile), nodeArgs: ctx.nodeArgs, cwd, workers });
  let server = await start();
  ctx.servers.push(server);
  const firstStartMs = server.startMs;

  const db = database(databaseUrl, { redisUrl });
  ctx.cleanups.push(() => closeDatabase(databaseUrl));
  if (redisUrl) ctx.cleanups.push(() => deleteRedisKeys(ctx, redisUrl, db));
  const { client, clientSecret } = await registerClient(db, {
    name: 'Benchmark App',
    redirectUris: [REDIRECT_URI],
    grantTypes: ['authorization_code', 'refresh_token', 'client_credentials', DEVICE_CODE_GRANT],
    scopes: ['openid', 'profile', 'email', 'offline_access'],
  });
  const password = randomBytes(18).toString('base64url');
  await createUser(db, { username: 'bench-user', password, email: 'bench-user@example.test', name: 'Bench Person' });
  // Another checkout may predate APIs (lib/authorization): its JWT rows are left out.
  const api = cwd ? undefined : await registerBenchApi(db, client.id, 'bench-user');

  // Restart: scripts/server.mjs (what `npm start` runs) on a built app and an existing database, the everyday start.
  await server.stop();
  ctx.servers.splice(ctx.servers.indexOf(server), 1);
  server = await start();
  ctx.servers.push(server);
  const restartMs = server.startMs;
  server.startMs = firstStartMs;
  ctx.log(`${name} on port ${port}: first start ${firstStartMs} ms, restart ${restartMs} ms`);
  const replicas: Server[] = [];
  for (let i = 2; i <= instances; i++) {
    const replica = await start(await freePort(), `${name}-${i}.log`);
    ctx.servers.push(replica);
    replicas.push(replica);
    ctx.log(`${name} instance ${i} on port ${replica.port} (issuer ${issuer}): start ${replica.startMs} ms`);
  }
  const count = workerCount(workers ?? '1', availableParallelism());
  return {
    server,
    replicas,
    ...(count !== undefined && count > 1 && { workers: count }),
    restartMs,
    databaseUrl,
    target: {
      name,
      base: server.base,
      ...(replicas.length > 0 && { bases: [server, ...replicas].map((s) => s.base) }),
      client: { id: client.id, secret: clientSecret!, redirectUri: REDIRECT_URI, scope: SCOPE },
      user: { username: 'bench-user', password },
      ...(api && { api }),
    },
  };
}

/**
 * The JWT rows' API (docs/authorization.md): JWT access tokens (RFC 9068) carrying the person's roles and groups,
 * so a token costs the roles lookup too. The client is granted its permission (client_credentials), and the user
 * a role that grants it (code flow: consent and token carry what the roles grant).
 */
async function registerBenchApi(db: Database, clientId: string, username: string): Promise<NonNullable<Target['api']>> {
  const resource = 'https://bench-api.example.test/';
  const scope = 'bench:read';
  await createApi(db, { identifier: resource, name: 'Bench API', tokenFormat: 'jwt', rolesInToken: true, permissions: [{ name: scope }] });
  await createRole(db, { name: 'bench-reader' });
  await addRolePermission(db, 'bench-reader', resource, scope);
  await assignRole(db, 'bench-reader', { user: username });
  await grantClientPermission(db, clientId, resource, scope);
  return { resource, scope };
}

/** The bench API's lifetime and signing algorithm as Gatehouse stored them, for the baseline's copy. */
async function apiSettings(db: Database, resource: string): Promise<{ lifetime: number; signingAlg: 'ES256' | 'RS256' }> {
  const api = await findApiByIdentifier(db, resource);
  if (!api) throw new Error(`the bench API ${resource} is missing`);
  return { lifetime: api.tokenLifetime, signingAlg: api.signingAlg };
}

/** The baseline with the first Gatehouse's client (plaintext secret), keys, account and TTLs. */
export async function startBaselineLike(
  ctx: Context,
  from: Gatehouse,
): Promise<{ server: Server; target: Target; passwordHash: string; jwks: Record<string, unknown>[] }> {
  const db = database(from.databaseUrl);
  const metadata = await findClientMetadata(db, from.target.client.id);
  const credentials = await findCredentials(db, from.target.user.username);
  if (!metadata || !credentials?.passwordHash) throw new Error('the benchmark client or user (with a password) is missing');
  const account = await findAccount(db, credentials.id);
  const jwks = (await listActiveSigningKeys(db)).map((k) => k.privateJwk);
  const settings = env();
  const port = await freePort();
  const config: BaselineConfig = {
    port,
    issuer: `http://127.0.0.1:${port}`,
    jwks: jwks as BaselineConfig['jwks'],
    cookieKeys: [randomBytes(32).toString('base64url')],
    client: { ...metadata, client_secret: from.target.client.secret } as BaselineConfig['client'],
    account: { ...account!, passwordHash: credentials.passwordHash },
    accessTokenTtl: settings.ACCESS_TOKEN_TTL,
    refreshTokenTtl: settings.REFRESH_TOKEN_TTL,
    sessionTtl: settings.SESSION_TTL,
    ...(from.target.api && { api: { ...from.target.api, ...(await apiSettings(db, from.target.api.resource)) } }),
  };
  const configFile = join(ctx.work, 'baseline.json');
  writeFileSync(configFile, JSON.stringify(config));
  const server = await startBaseline({ port, configFile, logFile: join(ctx.work, 'baseline.log'), nodeArgs: ctx.nodeArgs });
  ctx.servers.push(server);
  ctx.log(`baseline on port ${port}: start ${server.startMs} ms`);
  return {
    server,
    passwordHash: credentials.passwordHash,
    jwks,
    // One process: not the instances of the Gatehouse it copies (postgresql-redis-x2).
    target: { ...from.target, name: 'baseline', base: server.base, bases: undefined },
  };
}

/** `next start` on the Gatehouse's database, with its issuer: its browsers and tokens work there too. */
export async function startNextStartOn(ctx: Context, from: Gatehouse): Promise<{ server: Server; target: Target }> {
  const port = await freePort();
  const server = await startNextStart({
    port,
    databaseUrl: from.databaseUrl,
    issuer: from.server.issuer,
    logFile: join(ctx.work, 'next-start.log'),
    nodeArgs: ctx.nodeArgs,
  });
  ctx.servers.push(server);
  ctx.log(`gatehouse-next-start (provider behind Next's route handlers) on port ${port}: start ${server.startMs} ms`);
  return { server, target: { ...from.target, name: 'gatehouse-next-start', base: server.base, bases: undefined } };
}

/** The run's keys in Redis (all under the database's namespace, lib/db/redis-artifacts.ts). */
async function deleteRedisKeys(ctx: Context, redisUrl: string, db: Database) {
  const prefix = await db.redisArtifacts?.keyPrefix();
  if (!prefix) return;
  const redis = new Redis(redisUrl);
  let deleted = 0;
  for await (const keys of redis.scanStream({ match: `${prefix}*`, count: 1000 }) as AsyncIterable<string[]>) {
    if (keys.length > 0) deleted += await redis.unlink(...keys);
  }
  await redis.quit();
  ctx.log(`deleted ${deleted} Redis keys under ${prefix}`);
}

/**
 * Fresh statistics on each PostgreSQL schema's hot tables, before each row: a deployment in use has
 * them (autovacuum analyzes a table after every 10 % of change), a fresh schema growing by thousands
 * of rows a second has not, and PostgreSQL keeps the plans a tiny table got (sequential scans) for
 * each pooled connection's prepared statements until the next ANALYZE.
 */
export async function analyzeTables(databaseUrls: string[]): Promise<void> {
  for (const url of databaseUrls.filter((u) => !u.startsWith('file:'))) {
    const { connectionString, schema = 'public' } = splitSchema(url);
    const client = new pg.Client({ connectionString });
    await client.connect();
    const table = (name: string) => `"${schema}"."${name}"`;
    await client.query(`ANALYZE ${['oidc_model_instances', 'users', 'clients', 'throttle_counters'].map(table).join(', ')}`);
    await client.end();
  }
}

export async function postgresSchema(ctx: Context, base: string): Promise<string> {
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  const url = new URL(base);
  url.searchParams.set('schema', schema);
  ctx.cleanups.push(async () => {
    const client = new pg.Client({ connectionString: base });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
    ctx.log(`dropped PostgreSQL schema ${schema}`);
  });
  return url.toString();
}

/**
 * Signed-in browsers (to mint codes from) and reusable tokens: access tokens,
 * and refresh tokens (they do not rotate for confidential clients).
 */
export async function preparePools(target: Target): Promise<{ browsers: Browser[]; pools: Pools }> {
  const browsers = Array.from({ length: 32 }, () => new Browser(target));
  // Each browser logs in and consents once: 32 sessions, 32 grants.
  const first = await pool(browsers.length, 8, async (i) => redeem(target, await authorize(browsers[i])));
  if (!first[0].refresh_token || !first[0].id_token) throw new Error(`${target.name}: expected refresh and ID tokens`);
  const sets = [...first, ...(await mintCodes(browsers, 32).then((codes) => pool(codes.length, 8, (i) => redeem(target, codes[i]))))];
  // Several instances: the tokens, minted on the first, are active on every one, as the rows use them.
  for (const base of target.bases ?? [target.base]) await checkTokens({ ...target, base }, sets[sets.length - 1].access_token);
  // The protocol-feature rows (bench/protocol-rows.ts): device codes to poll, DPoP-bound tokens of one key.
  const key = dpopKey();
  const dpop = { key, issuer: target.base, tokens: await dpopBoundTokens(target, key, await mintCodes(browsers, 32)) };
  return {
    browsers,
    pools: {
      codes: [],
      refreshTokens: sets.map((s) => s.refresh_token!),
      accessTokens: sets.map((s) => s.access_token),
      deviceCodes: await deviceCodes(target, 32),
      dpop,
    },
  };
}

/** The tokens the introspection and userinfo rows reuse really are active, so the rows measure the real work. */
export async function checkTokens(target: Target, accessToken: string) {
  const userinfo = await fetch(new URL('/oauth/userinfo', target.base), { headers: { authorization: `Bearer ${accessToken}` } });
  const claims = (await userinfo.json()) as Record<string, unknown>;
  if (!userinfo.ok || claims.preferred_username !== target.user.username) {
    throw new Error(`${target.name}: userinfo ${userinfo.status} ${JSON.stringify(claims)} (www-authenticate: ${userinfo.headers.get('www-authenticate')})`);
  }
  const introspection = await fetch(new URL('/oauth/introspect', target.base), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basicAuth(target) },
    body: new URLSearchParams({ token: accessToken }).toString(),
  });
  const info = (await introspection.json()) as Record<string, unknown>;
  if (!introspection.ok || info.active !== true || info.username !== target.user.username) {
    throw new Error(`${target.name}: introspection ${introspection.status} ${JSON.stringify(info)}`);
  }
}
