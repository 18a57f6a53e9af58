/**
 * Builds the process's oidc-provider on a database: its keys, its
 * configuration, Gatehouse's extensions and the sweep of expired artifacts.
 * The server's context (lib/context.ts) builds it once, on first use.
 */
import Provider from 'oidc-provider';
import { brandFrom } from '../config/brand.ts';
import { deleteExpiredArtifacts } from '../db/artifacts.ts';
import type { AppContext } from '../context.ts';
import { useHashedClientSecrets } from './client-secret.ts';
import { providerConfiguration } from './configuration.ts';
import { useExtensions } from './extensions/index.ts';
import { loadCookieKeys, loadSigningKeys } from './keys.ts';
import { logServerError } from './server-errors.ts';

/** How often expired artifacts are deleted (they are already ignored on read). */
const CLEANUP_INTERVAL_MS = 10 * 60 * 1000;

export async function createProvider({ db, config, throttle, metrics }: Pick<AppContext, 'db' | 'config' | 'throttle' | 'metrics'>): Promise<Provider> {
  const [jwks, cookieKeys] = await Promise.all([loadSigningKeys(db), loadCookieKeys(db, config.COOKIE_KEYS)]);
  const brand = brandFrom(config);
  const provider = new Provider(
    config.ISSUER,
    providerConfiguration({
      issuer: config.ISSUER,
      db,
      jwks,
      cookieKeys,
      accessTokenTtl: config.ACCESS_TOKEN_TTL,
      refreshTokenTtl: config.REFRESH_TOKEN_TTL,
      sessionTtl: config.SESSION_TTL,
      sessionIdleTtl: config.SESSION_IDLE_TTL,
      metrics,
      brand,
    }),
  );
  // Koa reads host and scheme from X-Forwarded-Host/-Proto, which both mounts
  // overwrite with the issuer's (lib/oidc/issuer-headers.ts): never the client's.
  provider.proxy = true;
  useHashedClientSecrets(provider, throttle);
  useExtensions(provider, brand);
  // oidc-provider answers its own 500s with a generic server_error and tells no one unless listened to.
  provider.on('server_error', (ctx, error) => logServerError(ctx.get('x-request-id'), error));
  // Emitted once the token endpoint has answered a grant with its tokens.
  provider.on('grant.success', (ctx) => metrics.tokenIssued(ctx.oidc.params?.grant_type));

  const cleanup = setInterval(() => {
    deleteExpiredArtifacts(db.sql).catch((error) => logServerError('cleanup', error));
  }, CLEANUP_INTERVAL_MS);
  cleanup.unref();
  return provider;
}
