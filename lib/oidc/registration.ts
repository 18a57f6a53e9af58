/**
 * Dynamic client registration (RFC 7591) and its management (RFC 7592) through oidc-provider's own
 * `registration` and `registrationManagement` features, governed: with DYNAMIC_REGISTRATION=token a client
 * must present an initial access token an admin issued (lib/registration/tokens.ts), which the provider
 * reads through the adapter (model InitialAccessToken) and whose limits its `policies` hook applies; with
 * `open` it need not, and registrations are counted per source address. What the provider stores lands in
 * `clients` (lib/registration/clients.ts), where admins see it, approve it and disable it.
 */
import type { Configuration } from 'oidc-provider';
import type Provider from 'oidc-provider';
import { errors } from 'oidc-provider';
import type { Database } from '../db/database.ts';
import type { Env } from '../config/env.ts';
import { findClient } from '../clients/repository.ts';
import { requestContext } from '../platform/request-context.ts';
import type { Throttle } from '../platform/throttle.ts';
import { limitViolation } from '../registration/limits.ts';
import { inRegistrationRequest, registrationRequest, type RegistrationRequest } from '../registration/scope.ts';
import { findInitialAccessToken, initialAccessTokenByValue, isUsable, type InitialAccessTokenRecord } from '../registration/tokens.ts';
import { newClientId } from '../clients/manage.ts';
import { generateClientSecret } from './client-secret.ts';
import { routes } from './configuration.ts';

/** The one policy every initial access token carries: its own limits (lib/registration/limits.ts). */
export const LIMITS_POLICY = 'gatehouse_limits';

export type RegistrationMode = Env['DYNAMIC_REGISTRATION'];

/** The features' configuration for `mode`; both off unless the operator turned registration on. */
export function registrationFeatures(
  mode: RegistrationMode,
  db: Database,
): Pick<NonNullable<Configuration['features']>, 'registration' | 'registrationManagement'> {
  if (mode === 'off') return { registration: { enabled: false }, registrationManagement: { enabled: false } };
  return {
    registration: {
      enabled: true,
      // `token`: the provider looks the presented token up (the adapter's InitialAccessToken, from our table).
      initialAccessToken: mode === 'token',
      // The library runs policies only for tokens it finds through the adapter, so `open` has none: the rules
      // every client follows (lib/registration/clients.ts) are its only limits.
      policies:
        mode !== 'token'
          ? undefined
          : {
              // Runs for a registration with a token, and for every update of what registered with one (the
              // registration access token inherits the policy): the token's limits hold for the client's life.
              async [LIMITS_POLICY](ctx, properties) {
                const token = registrationRequest()?.initialAccessToken ?? (await tokenOfClient(db, ctx.oidc.client?.clientId));
                if (!token) throw new errors.InvalidClientMetadata('the initial access token this client registered with no longer exists');
                const violation = limitViolation(properties as Record<string, unknown>, token);
                if (violation?.error === 'invalid_redirect_uri') throw new errors.InvalidRedirectUri(violation.description);
                if (violation) throw new errors.InvalidClientMetadata(violation.description);
              },
            },
      // The same shapes as a client an admin registers: never an id that starts with "-", a 256-bit secret.
      idFactory: () => newClientId(),
      secretFactory: () => generateClientSecret(),
      issueRegistrationAccessToken: true,
    },
    // RFC 7592 read, update and delete with the registration access token, which each update replaces.
    registrationManagement: { enabled: true, rotateRegistrationAccessToken: true },
  };
}

async function tokenOfClient(db: Database, clientId: string | undefined): Promise<InitialAccessTokenRecord | undefined> {
  const client = clientId ? await findClient(db, clientId) : undefined;
  return client?.initialAccessTokenId ? findInitialAccessToken(db, client.initialAccessTokenId) : undefined;
}

/**
 * The adapter's InitialAccessToken.find: a token that can still register a client, in the provider's payload
 * shape, with the limits policy; noted on the request for the adapter's Client.upsert. Anything else is
 * unknown to the provider (401 invalid_token).
 */
export async function findInitialAccessTokenPayload(db: Database, value: string, now: number) {
  const token = await initialAccessTokenByValue(db, value);
  if (!token || !isUsable(token, now)) return undefined;
  const request = registrationRequest();
  if (request) request.initialAccessToken = token;
  return {
    jti: value,
    kind: 'InitialAccessToken',
    iat: Math.floor(token.createdAt.getTime() / 1000),
    exp: Math.floor(token.expiresAt.getTime() / 1000),
    policies: [LIMITS_POLICY],
  };
}

/**
 * In front of /oauth/register and /oauth/register/:id: runs the request in its registration scope (what
 * the adapter reads), counts open registrations per source address, and keeps the stored secret's hash out
 * of the management answers (a client's secret is shown once, in the registration's 201).
 */
export function useDynamicRegistration(provider: Provider, { throttle, config }: { throttle: Throttle; config: Env }): void {
  if (config.DYNAMIC_REGISTRATION === 'off') return;
  provider.use(async (ctx, next) => {
    if (ctx.path !== routes.registration && !ctx.path.startsWith(`${routes.registration}/`)) return next();
    const context = requestContext({ get: (name: string) => ctx.get(name) || null });
    const request: RegistrationRequest = {
      context,
      pendingWithoutToken: config.DYNAMIC_REGISTRATION === 'open' && config.DYNAMIC_REGISTRATION_OPEN_APPROVAL === 'on',
    };
    if (config.DYNAMIC_REGISTRATION === 'open' && ctx.method === 'POST' && ctx.path === routes.registration) {
      const check = await throttle.beforeOpenRegistration(context.ip);
      if (!check.allowed) {
        ctx.status = 429;
        ctx.set('Retry-After', String(check.retryAfterSeconds));
        ctx.set('Cache-Control', 'no-store');
        ctx.body = {
          error: 'too_many_requests',
          error_description: `too many registrations from this address; try again in ${check.retryAfterSeconds} seconds`,
        };
        return;
      }
    }
    await inRegistrationRequest(request, next);
    const body = ctx.body as Record<string, unknown> | undefined;
    if (ctx.method !== 'POST' && body && typeof body === 'object' && 'client_secret' in body) {
      delete body.client_secret;
      delete body.client_secret_expires_at;
    }
  });
}
