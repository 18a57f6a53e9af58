/**
 * oidc-provider's storage adapter. Each model is stored where
 * lib/db/artifact-store.ts says: the `oidc_model_instances` table
 * (lib/db/artifacts.ts), or Redis for the short-lived ones when REDIS_URL is
 * set, with grants and sessions read through the process's cache on
 * PostgreSQL. The `Client` model is read from the `clients` table; the provider
 * writes it only for dynamic registration (lib/registration/clients.ts), and
 * reads `InitialAccessToken` from `initial_access_tokens` (lib/oidc/registration.ts).
 */
import type { Adapter, AdapterPayload } from 'oidc-provider';
import Provider, { errors } from 'oidc-provider';
import {
  consumeArtifactOnce,
  grantIdOf,
  loadArtifact,
  loadArtifactByUid,
  loadArtifactByUserCode,
  removeArtifact,
  revokeArtifactsOfGrant,
  saveArtifact,
  type CachedRead,
} from '../db/artifact-store.ts';
import { type ArtifactPayload, destroyGrant, TOKEN_MODELS } from '../db/artifacts.ts';
import { databaseKind } from '../config/env.ts';
import { cachedClientMetadata, type ClientMetadata, findRegisteredClientMetadata } from '../clients/repository.ts';
import { deleteRegisteredClient, storeRegisteredClient } from '../registration/clients.ts';
import { registrationRequest } from '../registration/scope.ts';
import { findInitialAccessTokenPayload } from './registration.ts';
import type { Database } from '../db/database.ts';
import type { Metrics, StorageOperation } from '../ops/metrics.ts';
import { tracing } from '../ops/tracing.ts';

/**
 * The routes that read grants and sessions through the process's read cache: the
 * ones every API call behind Gatehouse costs, which only read. A stale entry there
 * is bounded (READ_CACHE_MAX_AGE_MS, and a change notifies the others) and, for the one check that could refuse a
 * valid token with it (the token's session still naming its grant), read again.
 * Everywhere else (sign-in, consent, code redemption, refresh, logout) the reads
 * follow the flow's own writes, possibly made on another instance a moment ago,
 * and go to the table.
 */
const CACHED_ROUTES: ReadonlySet<string> = new Set(['introspection', 'userinfo']);
const isTokenModel = (model: string) => (TOKEN_MODELS as readonly string[]).includes(model);

/** The token each cached request has just read, by the provider's request context (oidc-provider's Provider.ctx). */
const tokenOfRequest = new WeakMap<object, ArtifactPayload>();

/** The request a read belongs to when it may use the read cache; undefined when it may not. */
export type CachedRequest = () => { request: object } | undefined;

/** By oidc-provider's request context: a request on one of CACHED_ROUTES (none: a CLI or a test). */
function cachedRequest(): { request: object } | undefined {
  const ctx = Provider.ctx as { oidc?: { route?: string } } | undefined;
  return ctx?.oidc?.route && CACHED_ROUTES.has(ctx.oidc.route) ? { request: ctx } : undefined;
}

/** oidc-provider's session binding (checkSessionBinding): the session's account and its grant for the token's client. */
const bindsToken = (token: ArtifactPayload) => (session: ArtifactPayload) => {
  const authorizations = session.authorizations as Record<string, { grantId?: string }> | undefined;
  return session.accountId === token.accountId && (!token.clientId || authorizations?.[token.clientId]?.grantId === token.grantId);
};

/**
 * An expired device code is kept this much longer: the device's poll must get `expired_token` (RFC 8628 §3.5)
 * and the person's page "this code has expired", which oidc-provider answers only for a code it still finds
 * (it reads the code's own `exp`); one the store had dropped would be an unknown code.
 */
const EXPIRED_DEVICE_CODE_KEPT_MS = 10 * 60 * 1000;

/**
 * Builds the adapter class the provider instantiates once per model name; with `metrics`, every call is
 * timed per operation and, with tracing on, is a span of its own under the request's (lib/ops/tracing.ts).
 */
export function adapterFor(
  db: Database,
  {
    now,
    metrics,
    cachedRead = cachedRequest,
    withheldScopes,
    clientMetadata = (metadata) => metadata,
  }: {
    /** What the provider reads of a stored client (lib/oidc/protocol-features.ts leaves out the features that are off). */
    clientMetadata?: (metadata: ClientMetadata | undefined) => ClientMetadata | undefined;
    /** The context's clock (lib/context.ts): what expires, and when, is decided against it. */
    now: () => number;
    metrics?: Pick<Metrics, 'storageCall'>;
    cachedRead?: CachedRequest;
    /**
     * Scopes a client may be registered with that the provider does not know while their feature is
     * off (GROUPS_ROLES_CLAIMS: `groups`, `roles`): left out of the client's metadata, which the provider
     * would otherwise refuse whole (its `scope` must be a subset of the provider's scopes).
     */
    withheldScopes?: ReadonlySet<string>;
  },
) {
  // One copy per metadata object: the provider's client cache (./stored-clients.ts) keys on that object.
  const withheld = new WeakMap<object, AdapterPayload>();
  const withoutWithheld = (metadata: AdapterPayload | undefined): AdapterPayload | undefined => {
    if (!metadata || !withheldScopes?.size || typeof metadata.scope !== 'string') return metadata;
    const scopes = metadata.scope.split(' ');
    if (!scopes.some((scope) => withheldScopes.has(scope))) return metadata;
    let copy = withheld.get(metadata);
    if (!copy) withheld.set(metadata, (copy = { ...metadata, scope: scopes.filter((scope) => !withheldScopes.has(scope)).join(' ') }));
    return copy;
  };
  const adapter = class GatehouseAdapter implements Adapter {
    private readonly model: string;
    constructor(model: string) {
      this.model = model;
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      if (this.model === 'Client') {
        // Only the registration endpoints store a client, inside their request's scope (lib/oidc/registration.ts).
        const request = registrationRequest();
        if (!request) throw new Error('clients are managed by the CLI and portal, not the provider');
        return storeRegisteredClient(db, id, payload as Record<string, unknown>, request, now());
      }
      const kept = this.model === 'DeviceCode' ? EXPIRED_DEVICE_CODE_KEPT_MS : 0;
      const expiresAt = typeof expiresIn === 'number' ? now() + expiresIn * 1000 + kept : null;
      await saveArtifact(db, this.model, id, payload, expiresAt);
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      if (this.model === 'Client') {
        const metadata = await cachedClientMetadata(db, id, now());
        // A self-registered client waiting for approval exists only to manage its registration (RFC 7592).
        // What the provider reads: without the protocol features that are off, then without the scopes that are.
        if (!metadata && registrationRequest()) {
          return withoutWithheld(clientMetadata(await findRegisteredClientMetadata(db, id)) as AdapterPayload | undefined);
        }
        return withoutWithheld(clientMetadata(metadata) as AdapterPayload | undefined);
      }
      if (this.model === 'InitialAccessToken') return findInitialAccessTokenPayload(db, id, now()) as Promise<AdapterPayload | undefined>;
      const cached = cachedRead();
      const payload = await loadArtifact(db, this.model, id, now(), { cached: Boolean(cached) });
      if (cached && payload && isTokenModel(this.model)) tokenOfRequest.set(cached.request, payload);
      return payload as AdapterPayload | undefined;
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      const cached = cachedRead();
      const token = cached && tokenOfRequest.get(cached.request);
      const read: CachedRead = { cached: Boolean(cached), accept: token ? bindsToken(token) : undefined };
      return loadArtifactByUid(db, this.model, uid, now(), read) as Promise<AdapterPayload | undefined>;
    }

    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      return loadArtifactByUserCode(db, this.model, userCode, now()) as Promise<AdapterPayload | undefined>;
    }

    /**
     * The provider checks `consumed` after `find`, so two racing requests could
     * both pass that check. The store decides (a conditional UPDATE, or a Lua
     * script in Redis): the loser is refused with invalid_grant and, as RFC 6749
     * §4.1.2 and §10.5 ask for a reused code, the grant and every token issued
     * from it are revoked.
     */
    async consume(id: string): Promise<void> {
      if (await consumeArtifactOnce(db, this.model, id, now())) return;
      const grantId = await grantIdOf(db, this.model, id);
      if (grantId) await destroyGrant(db, grantId);
      throw new errors.InvalidGrant(`${this.model === 'RefreshToken' ? 'refresh token' : 'authorization code'} already used`);
    }

    async destroy(id: string): Promise<void> {
      // RFC 7592 §2.3: a self-registered client deleting its registration.
      if (this.model === 'Client') return deleteRegisteredClient(db, id, registrationRequest());
      await removeArtifact(db, this.model, id);
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await revokeArtifactsOfGrant(db, this.model, grantId);
    }
  };
  return metrics ? timed(adapter, metrics, databaseKind(db.url)) : adapter;
}

const OPERATIONS: StorageOperation[] = ['upsert', 'find', 'findByUid', 'findByUserCode', 'consume', 'destroy', 'revokeByGrantId'];

/**
 * Times each operation of a class adapterFor just built (its own, so changing
 * its prototype touches no other), until it settles: a slow failure is as slow.
 * Traced, each call is a span named by the operation and the model (`find
 * AccessToken`); never its argument, which is a token, a code or a uid.
 */
function timed<T extends { prototype: Adapter }>(adapter: T, metrics: Pick<Metrics, 'storageCall'>, system: 'sqlite' | 'postgresql'): T {
  const methods = adapter.prototype as unknown as Record<StorageOperation, (...args: unknown[]) => Promise<unknown>>;
  for (const operation of OPERATIONS) {
    const call = methods[operation];
    methods[operation] = function (this: Adapter, ...args: unknown[]) {
      const done = metrics.storageCall(operation);
      // A refusal the adapter throws on purpose (a reused code's invalid_grant) is no storage error.
      const settle = <R>(called: Promise<R>) =>
        called.then(
          (result) => {
            done();
            return result;
          },
          (error: unknown) => {
            done(error instanceof errors.OIDCProviderError ? undefined : error);
            throw error;
          },
        );
      const tracer = tracing();
      if (!tracer) return settle(call.apply(this, args));
      const model = (this as unknown as { model: string }).model;
      const attributes = {
        'db.system.name': system,
        'db.operation.name': operation,
        'db.collection.name': model === 'Client' ? 'clients' : 'oidc_model_instances',
        'gatehouse.model': model,
      };
      return settle(tracer.inSpan(`${operation} ${model}`, 'client', attributes, () => call.apply(this, args)));
    };
  }
  return adapter;
}
