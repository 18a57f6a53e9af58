/**
 * The baseline: a bare oidc-provider 9 on node:http, as a team would hand-roll
 * it. It takes Gatehouse's own provider configuration (lib/oidc/configuration.ts:
 * same routes, PKCE, response types, algorithms, claims, TTLs, features) and
 * replaces only the storage: oidc-provider's in-memory adapter, the one client
 * as a static client with its plaintext secret, and the one account in memory.
 * Login and consent are two minimal forms; login verifies an argon2id hash with
 * @node-rs/argon2, as Gatehouse does.
 *
 * Usage: node --import tsx bench/baseline-server.ts <config.json>   (see BaselineConfig)
 */
import { verify } from '@node-rs/argon2';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import Provider, { type ClientMetadata, errors, type JWK } from 'oidc-provider';
import MemoryAdapter from 'oidc-provider/lib/adapters/memory_adapter.js';
import LRU from 'oidc-provider/lib/helpers/lru.js';
import type { Database } from '../lib/db/database.ts';
import type { AccountRecord } from '../lib/users/repository.ts';
import { accountClaims, providerConfiguration } from '../lib/oidc/configuration.ts';
import { DEFAULT_BRAND } from '../lib/config/brand.ts';
import { NO_PROTOCOL_FEATURES } from '../lib/oidc/protocol-features.ts';

export interface BaselineConfig {
  port: number;
  issuer: string;
  jwks: JWK[];
  cookieKeys: string[];
  client: ClientMetadata;
  account: AccountRecord & { passwordHash: string };
  accessTokenTtl: number;
  refreshTokenTtl: number;
  sessionTtl: number;
  /**
   * The JWT rows' API as the bare library would serve it by hand: one static resource server (RFC 8707), its
   * permission granted to whoever asks, a JWT access token (RFC 9068) of the same lifetime and algorithm as
   * Gatehouse's API. No roles lookup: what that costs Gatehouse is what the JWT rows show.
   */
  api?: { resource: string; scope: string; lifetime: number; signingAlg: 'ES256' | 'RS256' };
}

const config = JSON.parse(readFileSync(process.argv[2], 'utf8')) as BaselineConfig;
const { account } = config;

const configuration = providerConfiguration({
  now: Date.now,
  issuer: config.issuer,
  // Reached through the adapter and findAccount, both replaced below, and the remembered-consent lookup of
  // loadExistingGrant (lib/oidc/grants.ts), which finds none here: the bare library remembers no consent.
  db: { prisma: { consent: { findUnique: async () => null } } } as unknown as Database,
  jwks: config.jwks,
  cookieKeys: config.cookieKeys,
  accessTokenTtl: config.accessTokenTtl,
  refreshTokenTtl: config.refreshTokenTtl,
  sessionTtl: config.sessionTtl,
  brand: DEFAULT_BRAND,
  // As the Gatehouses run (bench/servers.ts: DEVICE_FLOW and DPOP on), for the protocol-feature rows.
  protocol: { ...NO_PROTOCOL_FEATURES, deviceFlow: true, dPoP: true },
  protocolSecrets: { dpopNonceSecret: randomBytes(32) },
});
// oidc-provider's default adapter, its in-memory store. By default it is an LRU
// of 1,000 entries, which the benchmark outgrows in a second (codes and the
// grants behind reused tokens were evicted): same adapter code, a store sized
// so that nothing is evicted.
const store = new LRU({ maxSize: 10_000_000 });
configuration.adapter = (model: string) => new MemoryAdapter(model, store, configuration.clockTolerance ?? 0);
configuration.clients = [config.client];
const { api } = config;
if (api) {
  configuration.features = {
    ...configuration.features,
    resourceIndicators: {
      enabled: true,
      useGrantedResource: async () => true,
      getResourceServerInfo: async (_ctx, indicator) => {
        if (indicator !== api.resource) throw new errors.InvalidTarget();
        return { audience: api.resource, scope: api.scope, accessTokenTTL: api.lifetime, accessTokenFormat: 'jwt', jwt: { sign: { alg: api.signingAlg } } };
      },
    },
  };
}
configuration.findAccount = async (_ctx, sub) => (sub === account.id ? { accountId: account.id, claims: async () => accountClaims(account) } : undefined);
configuration.extraTokenClaims = async (_ctx, token) => ('accountId' in token && token.accountId === account.id ? { username: account.username } : undefined);

const provider = new Provider(config.issuer, configuration);
provider.proxy = false;
provider.on('server_error', (_ctx, error) => console.error('server_error', error));
const callback = provider.callback();

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function html(res: ServerResponse, body: string): void {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(`<!doctype html><html><head><meta charset="utf-8"><title>Sign in</title></head><body>${body}</body></html>`);
}

function seeOther(res: ServerResponse, location: string): void {
  res.writeHead(303, { location, 'cache-control': 'no-store' });
  res.end();
}

async function form(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

async function interaction(req: IncomingMessage, res: ServerResponse, uid: string, action: string | undefined): Promise<void> {
  const details = await provider.interactionDetails(req, res);
  const base = `/interaction/${encodeURIComponent(uid)}`;
  if (req.method === 'GET' && !action) {
    const client = await provider.Client.find(String(details.params.client_id));
    const name = escapeHtml(client?.clientName ?? String(details.params.client_id));
    if (details.prompt.name === 'login') {
      return html(
        res,
        `<h1>Sign in to ${name}</h1><form method="post" action="${base}/login"><input name="username"><input name="password" type="password"><button>Sign in</button></form>`,
      );
    }
    return html(res, `<h1>Allow ${name}?</h1><form method="post" action="${base}/confirm"><button>Allow</button></form>`);
  }
  if (req.method === 'POST' && action === 'login' && details.prompt.name === 'login') {
    const fields = await form(req);
    const password = fields.get('password') ?? '';
    // One argon2id verification whether or not the username matches (as Gatehouse does).
    const valid = await verify(account.passwordHash, password).catch(() => false);
    if (!valid || fields.get('username') !== account.username) return seeOther(res, `${base}?error=invalid_credentials`);
    const returnTo = await provider.interactionResult(req, res, { login: { accountId: account.id } }, { mergeWithLastSubmission: false });
    return seeOther(res, returnTo);
  }
  if (req.method === 'POST' && action === 'confirm' && details.prompt.name === 'consent') {
    const missing = details.prompt.details as {
      missingOIDCScope?: string[];
      missingOIDCClaims?: string[];
      missingResourceScopes?: Record<string, string[]>;
    };
    const grant = details.grantId
      ? await provider.Grant.find(details.grantId)
      : new provider.Grant({ accountId: details.session?.accountId, clientId: String(details.params.client_id) });
    if (!grant) throw new Error('grant vanished');
    if (missing.missingOIDCScope?.length) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    if (missing.missingOIDCClaims?.length) grant.addOIDCClaims(missing.missingOIDCClaims);
    for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) grant.addResourceScope(indicator, scopes.join(' '));
    const grantId = await grant.save();
    const returnTo = await provider.interactionResult(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
    return seeOther(res, returnTo);
  }
  seeOther(res, `${base}?error=wrong_step`);
}

const server = createServer((req, res) => {
  const match = /^\/interaction\/([^/?]+)(?:\/(login|confirm))?(?:\?.*)?$/.exec(req.url ?? '');
  if (!match) return void callback(req, res);
  interaction(req, res, decodeURIComponent(match[1]), match[2]).catch((error: Error) => {
    if (error.name !== 'SessionNotFound') console.error(error);
    if (!res.headersSent) res.writeHead(error.name === 'SessionNotFound' ? 400 : 500, { 'content-type': 'text/plain' });
    res.end(error.name);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(config.port, '127.0.0.1', () => console.log(`baseline listening on ${config.port}`));
// A clean exit, so that --cpu-prof can write its profile.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
}
