/**
 * Builds the process's oidc-provider on a database: its keys, its
 * configuration, Gatehouse's extensions; and the sweep of expired artifacts.
 * The server's context (lib/context.ts) builds it on first use, and again
 * whenever the published signing keys change: oidc-provider reads its JWKS
 * once, when it is constructed (lib/keys/signing-keys.ts).
 */
import Provider from 'oidc-provider';
import { brandFrom } from '../config/brand.ts';
import { deleteExpiredArtifacts } from '../db/artifacts.ts';
import { cachedClientMetadata, noteClientUsed } from '../clients/repository.ts';
import type { AppContext } from '../context.ts';
import { useHashedClientSecrets } from './client-secret.ts';
import { useClientsByMetadata } from './stored-clients.ts';
import { jwtAccessTokenIds, useJwtAccessTokens } from './jwt-access-tokens.ts';
import { useStructuredTokenLookup } from './extensions/structured-tokens.ts';
import { useQueuedBackchannelLogout } from './backchannel-logout.ts';
import { useDynamicRegistration } from './registration.ts';
import { providerConfiguration, routes } from './configuration.ts';
import { devicePageSettings, useUserCodeThrottle } from './device-pages.ts';
import { loadProtocolSecrets, protocolFeaturesOf } from './protocol-features.ts';
import { useAtomicReplayDetection } from './replay-detection.ts';
import { useDevicePollingPace } from './extensions/device-polling.ts';
import { useExtensions } from './extensions/index.ts';
import { useMappedClaims } from './mapped-claims.ts';
import { useUpstreamLogout } from '../federation/upstream-logout.ts';
import { loadCookieKeys, loadSigningKeys } from './keys.ts';
import { logServerError } from './server-errors.ts';

/** How often expired artifacts are deleted (they are already ignored on read). */
const CLEANUP_INTERVAL_MS = 10 * 60 * 1000;

/** A provider and the version of the signing keys it publishes (lib/keys/repository.ts). */
export interface BuiltProvider {
  provider: Provider;
  keysVersion: string;
}

export async function createProvider({
  db,
  config,
  throttle,
  metrics,
  log,
  now,
}: Pick<AppContext, 'db' | 'config' | 'throttle' | 'metrics' | 'log' | 'now'>): Promise<BuiltProvider> {
  const protocol = protocolFeaturesOf(config);
  const [{ jwks, version }, cookieKeys, protocolSecrets] = await Promise.all([
    loadSigningKeys(db),
    loadCookieKeys(db, config.COOKIE_KEYS),
    loadProtocolSecrets(db, protocol),
  ]);
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
      now,
      brand,
      defaultLocale: config.DEFAULT_LOCALE,
      emailSignInCodes: config.EMAIL_SIGN_IN_CODES === 'on',
      groupsRolesClaims: config.GROUPS_ROLES_CLAIMS === 'on',
      backchannelLogout: config.BACKCHANNEL_LOGOUT === 'on',
      dynamicRegistration: config.DYNAMIC_REGISTRATION,
      protocol,
      protocolSecrets,
      throttle,
    }),
  );
  // Koa reads host and scheme from X-Forwarded-Host/-Proto, which both mounts
  // overwrite with the issuer's (lib/oidc/issuer-headers.ts): never the client's.
  provider.proxy = true;
  useHashedClientSecrets(provider, throttle);
  useClientsByMetadata(provider, (clientId) => cachedClientMetadata(db, clientId, now()));
  // An API's JWT access tokens, introspected and revoked like the opaque ones (./jwt-access-tokens.ts).
  const jtiOf = jwtAccessTokenIds(jwks, config.ISSUER);
  useJwtAccessTokens(provider, jtiOf);
  if (protocol.dPoP) useAtomicReplayDetection(provider, db, now);
  useExtensions(provider, brand, log);
  // Clients' claim mappings in ID tokens and userinfo (lib/claims).
  useMappedClaims(provider, db);
  useStructuredTokenLookup(provider);
  if (config.BACKCHANNEL_LOGOUT === 'on') useQueuedBackchannelLogout(provider, db, now);
  useDynamicRegistration(provider, { throttle, config });
  // A federated session's logout goes on to the upstream's when its connection says so (lib/federation/upstream-logout.ts).
  useUpstreamLogout(provider, {
    db,
    now,
    issuer: config.ISSUER,
    routes: { authorization: routes.authorization, endSession: routes.end_session },
    warn: (details, message) => log.warn(details, message),
  });
  if (protocol.deviceFlow) {
    useUserCodeThrottle(provider, routes.code_verification, devicePageSettings(brand, config.DEFAULT_LOCALE), throttle);
    useDevicePollingPace(provider, { token: routes.token, deviceAuthorization: routes.device_authorization }, db, now);
  }
  // oidc-provider answers its own 500s with a generic server_error and tells no one unless listened to.
  provider.on('server_error', (ctx, error) => logServerError(log, ctx.get('x-request-id'), error));
  // Emitted once the token endpoint has answered a grant with its tokens.
  provider.on('grant.success', (ctx) => {
    metrics.tokenIssued(ctx.oidc.params?.grant_type);
    // A self-registered client in use is not disabled as unused (lib/registration/clients.ts); at most one write an hour.
    const clientId = ctx.oidc.client?.clientId;
    if (config.DYNAMIC_REGISTRATION !== 'off' && clientId) {
      noteClientUsed(db, clientId, now()).catch((error: unknown) => log.error({ err: error }, 'noting a client as used failed'));
    }
  });
  return { provider, keysVersion: version };
}

/** Deletes expired artifacts every few minutes, for the process's life (lib/context.ts starts it with the first provider). */
export function startArtifactCleanup({ db, log, now }: Pick<AppContext, 'db' | 'log' | 'now'>): void {
  const cleanup = setInterval(() => {
    deleteExpiredArtifacts(db.sql, now()).catch((error: unknown) => log.error({ err: error }, 'deleting expired artifacts failed'));
  }, CLEANUP_INTERVAL_MS);
  cleanup.unref();
}
