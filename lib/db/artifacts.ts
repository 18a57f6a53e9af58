/**
 * The one owner of `oidc_model_instances`, where oidc-provider's artifacts
 * (sessions, interactions, codes, tokens, grants...) live: the provider's
 * artifact store. Its audience is the provider's adapter (lib/oidc/adapter.ts,
 * through ./artifact-store.ts), whose calls take the raw driver (lib/db/sql.ts)
 * because it makes several per token request, and the use cases that keep
 * short-lived state of their own in the table (pending sign-in steps, WebAuthn
 * challenges). The only other reader is a person's read model
 * (lib/account/repository.ts: their sessions and grants, revoking what they
 * hold, which session a portal sign-in came from), which builds on the
 * exports here for the table's conventions.
 * Times in the table are epoch milliseconds.
 *
 * A row must not be worth anything to whoever reads it. Where an artifact's id
 * is itself the credential (a bearer token, a code, the session cookie's
 * value), the row is keyed by a SHA-256 of it and the payload keeps no copy
 * (its `jti`, an interaction's `session.cookie`): lookups hash the presented
 * value, so they stay one indexed query, and a copy of the table replays
 * nothing. As Hydra stores token signatures rather than tokens. Plain SHA-256
 * suffices: the ids are at least 126 random bits, nothing to guess.
 */
import { createHash } from 'node:crypto';
import type { OidcModelInstance } from '../generated/sqlite/client.ts';
import { postgresBatches } from './artifact-batches.ts';
import type { Database } from './database.ts';
import type { RedisArtifactRow } from './redis-artifacts.ts';
import { columnList, type RawRow } from './rows.ts';
import type { Sql, SqlValue } from './sql.ts';

export interface ArtifactPayload {
  grantId?: string;
  clientId?: string;
  accountId?: string;
  uid?: string;
  userCode?: string;
  [key: string]: unknown;
}

/** The models an opaque token value can belong to. */
export const TOKEN_MODELS = ['AccessToken', 'ClientCredentials', 'RefreshToken'] as const;
const tokenModelList = TOKEN_MODELS.map((model) => `'${model}'`).join(', ');

const payloadFields = ['payload', 'expiresAt', 'consumedAt'] as const;
/** What a read returns of a stored artifact, from the table or from Redis: the payload as stored, its expiry and its consumption. */
export type ArtifactRow = RawRow<OidcModelInstance, (typeof payloadFields)[number]>;
const columns = columnList<OidcModelInstance>(payloadFields);

/**
 * The provider's short-lived artifacts, which live in Redis when REDIS_URL is
 * set (lib/db/redis-artifacts.ts): each is written once or twice and read a
 * few times within minutes, and losing them all costs people a new sign-in
 * and apps a refresh, never a durable right. Grants, refresh tokens and
 * sessions (what lasts, and what a person sees and revokes in /account) stay
 * in the table. Gatehouse's own interaction-scoped models (second steps,
 * passkey challenges) stay in the table too: they are written through the
 * functions below that take `sql`.
 */
export const REDIS_MODELS: ReadonlySet<string> = new Set(['Interaction', 'AuthorizationCode', 'AccessToken', 'ClientCredentials', 'ReplayDetection']);

/**
 * The models whose id is a credential. Not hashed: grants (their id is only
 * ever a reference, `grantId`), interactions (their id is in the page's URL;
 * the signed interaction cookie is what resumes one), replay detection, and
 * device codes, which the device flow finds by their user code and saves again
 * under their id, so the row must know it (the flow is off: oidc-provider's
 * default, which lib/oidc/configuration.ts keeps).
 */
const CREDENTIAL_MODELS: ReadonlySet<string> = new Set([
  'AccessToken',
  'AuthorizationCode',
  'RefreshToken',
  'ClientCredentials',
  'Session',
  'BackchannelAuthenticationRequest',
  'PushedAuthorizationRequest',
  // RFC 7592's bearer credential for managing a self-registered client.
  'RegistrationAccessToken',
]);

/**
 * Hex, 64 characters: never the shape of a provider-generated id (base64url, 21 or 43 characters).
 * A value looked up as several models in one turn (introspection: access and client-credentials
 * token) is hashed once; the memo is emptied at the next turn.
 */
export function hashArtifactId(id: string): string {
  let hash = recentHashes.get(id);
  if (hash === undefined) {
    if (recentHashes.size === 0) setImmediate(() => recentHashes.clear());
    hash = createHash('sha256').update(id).digest('hex');
    recentHashes.set(id, hash);
  }
  return hash;
}
const recentHashes = new Map<string, string>();

/** The key a row is stored under. */
export const storedId = (model: string, id: string) => (CREDENTIAL_MODELS.has(model) ? hashArtifactId(id) : id);

/** The payload as stored: without the copies of a credential the provider keeps in it. */
export function storedPayload(model: string, payload: ArtifactPayload): ArtifactPayload {
  if (CREDENTIAL_MODELS.has(model)) {
    const { jti: _jti, ...rest } = payload;
    return rest;
  }
  const session = payload.session as { cookie?: string } | undefined;
  if (model === 'Interaction' && session?.cookie) {
    const { cookie: _cookie, ...rest } = session;
    return { ...payload, session: rest };
  }
  return payload;
}

/**
 * A stored artifact, or undefined when missing or expired. `consumed` is set in
 * epoch seconds, as the provider expects. Found by its value, a credential gets
 * its `jti` back (the provider's models read their id from it).
 */
export function toPayload(row: ArtifactRow | undefined, now: number, jti?: string): ArtifactPayload | undefined {
  if (!row) return undefined;
  if (row.expires_at !== null && Number(row.expires_at) <= now) return undefined;
  const payload = JSON.parse(row.payload) as ArtifactPayload;
  if (jti !== undefined) payload.jti = jti;
  if (row.consumed_at !== null) payload.consumed = Math.floor(Number(row.consumed_at) / 1000);
  return payload;
}

/** An artifact read from Redis as a row: Redis drops it at its expiry itself. */
export const fromRedis = (stored: RedisArtifactRow | undefined): ArtifactRow | undefined =>
  stored && { payload: stored.payload, expires_at: null, consumed_at: stored.consumedAt };

export const jtiOf = (model: string, id: string) => (CREDENTIAL_MODELS.has(model) ? id : undefined);

/**
 * Saving fails safe if lost in a database crash (the artifact does not exist): see Sql.run's `durable`.
 * On PostgreSQL, saves made in one turn of the event loop go as one statement (lib/db/artifact-batches.ts).
 */
export async function upsertArtifact(sql: Sql, model: string, id: string, payload: ArtifactPayload, expiresAt: number | null) {
  if (sql.kind === 'postgresql') {
    return postgresBatches(sql, tokenModelList).upsert({
      model,
      id: storedId(model, id),
      payload: JSON.stringify(storedPayload(model, payload)),
      grant_id: payload.grantId ?? null,
      client_id: payload.clientId ?? null,
      account_id: payload.accountId ?? null,
      uid: payload.uid ?? null,
      user_code: payload.userCode ?? null,
      expires_at: expiresAt,
    });
  }
  await sql.run(
    `INSERT INTO oidc_model_instances (model, id, payload, grant_id, client_id, account_id, uid, user_code, expires_at, consumed_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)
     ON CONFLICT (model, id) DO UPDATE SET payload = excluded.payload, grant_id = excluded.grant_id,
       client_id = excluded.client_id, account_id = excluded.account_id, uid = excluded.uid,
       user_code = excluded.user_code, expires_at = excluded.expires_at`,
    [
      model,
      storedId(model, id),
      JSON.stringify(storedPayload(model, payload)),
      payload.grantId ?? null,
      payload.clientId ?? null,
      payload.accountId ?? null,
      payload.uid ?? null,
      payload.userCode ?? null,
      expiresAt,
    ],
    { durable: false },
  );
}

/** The stored row, expired or not (lib/db/artifact-store.ts caches rows and reads them with toPayload). */
export const findArtifactRow = (sql: Sql, model: string, id: string) =>
  sql.kind === 'postgresql'
    ? postgresBatches(sql, tokenModelList).find({ model, id: storedId(model, id) })
    : sql.one<ArtifactRow>(`SELECT ${columns} FROM oidc_model_instances WHERE model = ? AND id = ?`, [model, storedId(model, id)]);

export const findArtifactRowByUid = (sql: Sql, model: string, uid: string) =>
  sql.one<ArtifactRow>(`SELECT ${columns} FROM oidc_model_instances WHERE model = ? AND uid = ?`, [model, uid]);

export async function findArtifact(sql: Sql, model: string, id: string, now: number) {
  return toPayload(await findArtifactRow(sql, model, id), now, jtiOf(model, id));
}

const tokenReads = new WeakMap<Sql, Map<string, Promise<Array<ArtifactRow & { model: string }>>>>();

/**
 * A token by value, as one of TOKEN_MODELS. Introspection and revocation look a
 * token up as all three kinds at once; lookups of one value made in the same
 * turn of the event loop share one query (one statement, or one PostgreSQL round
 * trip, instead of three). The shared read is forgotten at the next turn, so it
 * never outlives the request that made it.
 */
export async function findTokenArtifact(sql: Sql, model: (typeof TOKEN_MODELS)[number], id: string, now: number) {
  let reads = tokenReads.get(sql);
  if (!reads) tokenReads.set(sql, (reads = new Map()));
  let rows = reads.get(id);
  if (!rows) {
    if (reads.size === 0) setImmediate(() => reads.clear());
    // On PostgreSQL, the lookups of several values in one turn go as one statement too (lib/db/artifact-batches.ts).
    rows =
      sql.kind === 'postgresql'
        ? postgresBatches(sql, tokenModelList).findTokens(hashArtifactId(id))
        : sql.all<ArtifactRow & { model: string }>(`SELECT model, ${columns} FROM oidc_model_instances WHERE model IN (${tokenModelList}) AND id = ?`, [
            hashArtifactId(id),
          ]);
    reads.set(id, rows);
  }
  return toPayload(
    (await rows).find((row) => row.model === model),
    now,
    id,
  );
}

export async function findArtifactByUid(sql: Sql, model: string, uid: string, now: number) {
  return toPayload(await findArtifactRowByUid(sql, model, uid), now);
}

export async function findArtifactByUserCode(sql: Sql, model: string, userCode: string, now: number) {
  const row = await sql.one<ArtifactRow>(`SELECT ${columns} FROM oidc_model_instances WHERE model = ? AND user_code = ?`, [model, userCode]);
  return toPayload(row, now);
}

/**
 * Marks an artifact consumed. Returns false when it was already consumed (or is
 * gone): the conditional UPDATE is what makes a code or refresh token usable
 * exactly once even when two requests race for it.
 */
export async function consumeArtifact(sql: Sql, model: string, id: string, now: number): Promise<boolean> {
  if (sql.kind === 'postgresql') return postgresBatches(sql, tokenModelList).consume({ model, id: storedId(model, id), at: now });
  const changed = await sql.run('UPDATE oidc_model_instances SET consumed_at = ? WHERE model = ? AND id = ? AND consumed_at IS NULL', [
    now,
    model,
    storedId(model, id),
  ]);
  return changed === 1;
}

export async function grantIdOfArtifact(sql: Sql, model: string, id: string): Promise<string | undefined> {
  const row = await sql.one<{ grant_id: string | null }>('SELECT grant_id FROM oidc_model_instances WHERE model = ? AND id = ?', [model, storedId(model, id)]);
  return row?.grant_id ?? undefined;
}

/**
 * Removes an artifact and returns what it held, or undefined when it was gone
 * or expired: one DELETE ... RETURNING, so of two requests taking one
 * artifact (a single-use challenge) only one gets it.
 */
export async function takeArtifact(sql: Sql, model: string, id: string, now: number): Promise<ArtifactPayload | undefined> {
  const row = await sql.one<ArtifactRow>(`DELETE FROM oidc_model_instances WHERE model = ? AND id = ? RETURNING ${columns}`, [model, storedId(model, id)]);
  return toPayload(row, now, jtiOf(model, id));
}

export async function destroyArtifact(sql: Sql, model: string, id: string) {
  await sql.run('DELETE FROM oidc_model_instances WHERE model = ? AND id = ?', [model, storedId(model, id)]);
}

/** Deletes a session and returns its uid (what the read cache names it by), when it existed. */
export async function destroySessionReturningUid(sql: Sql, id: string): Promise<string | undefined> {
  const row = await sql.one<{ uid: string | null }>("DELETE FROM oidc_model_instances WHERE model = 'Session' AND id = ? RETURNING uid", [
    storedId('Session', id),
  ]);
  return row?.uid ?? undefined;
}

export async function destroyArtifactsByGrantId(sql: Sql, model: string, grantId: string) {
  await sql.run('DELETE FROM oidc_model_instances WHERE model = ? AND grant_id = ?', [model, grantId]);
}

/**
 * Every artifact of a grant, whatever its model and wherever it lives, and the
 * grant itself (RFC 6749 §10.5 on code reuse); returns how many there were.
 */
export async function destroyGrant({ sql, redisArtifacts, cache }: Database, grantId: string): Promise<number> {
  const [inTable, inRedis = 0] = await Promise.all([
    sql.run("DELETE FROM oidc_model_instances WHERE grant_id = ? OR (model = 'Grant' AND id = ?)", [grantId, grantId]),
    redisArtifacts?.destroyOf('grant', grantId),
  ]);
  cache.forget(`Grant:${grantId}`);
  return inTable + inRedis;
}

/** What Redis holds of these grants (codes, access tokens), deleted; how many there were. */
export async function destroyInRedisOfGrants({ redisArtifacts }: Database, grantIds: string[]): Promise<number> {
  if (!redisArtifacts) return 0;
  const counts = await Promise.all(grantIds.map((grantId) => redisArtifacts.destroyOf('grant', grantId)));
  return counts.reduce((a, b) => a + b, 0);
}

/** The ids of the grants matching a condition on the table's columns (`?` placeholders). */
export const grantIdsWhere = async (sql: Sql, where: string, params: SqlValue[]) =>
  (await sql.all<{ id: string }>(`SELECT id FROM oidc_model_instances WHERE model = 'Grant' AND ${where}`, params)).map((row) => row.id);

/** Removes expired rows; returns how many. */
export async function deleteExpiredArtifacts(sql: Sql, now: number): Promise<number> {
  return sql.run('DELETE FROM oidc_model_instances WHERE expires_at IS NOT NULL AND expires_at <= ?', [now]);
}

/**
 * Rows written before credentials were hashed (see the top of this file): each
 * one is rekeyed by its hash and loses its copy of the credential, so sessions,
 * codes and tokens issued before the upgrade keep working and a copy of the
 * database replays none of them. Pages through each model by id; a row already
 * rekeyed (64 hex characters) is passed over, so an interrupted run resumes.
 * A data migration (lib/db/data-migrations.ts): runs once per database.
 */
export async function hashStoredCredentials(sql: Sql, batch = 500): Promise<number> {
  let changed = 0;
  for (const model of [...CREDENTIAL_MODELS, 'Interaction']) {
    let after = '';
    for (;;) {
      const rows = await sql.all<{ id: string; payload: string }>(
        'SELECT id, payload FROM oidc_model_instances WHERE model = ? AND id > ? ORDER BY id LIMIT ?',
        [model, after, batch],
      );
      if (rows.length === 0) break;
      after = rows[rows.length - 1].id;
      for (const row of rows) {
        const payload = JSON.parse(row.payload) as ArtifactPayload;
        const id = CREDENTIAL_MODELS.has(model) && !/^[0-9a-f]{64}$/.test(row.id) ? hashArtifactId(row.id) : row.id;
        const stored = JSON.stringify(storedPayload(model, payload));
        if (id === row.id && stored === row.payload) continue;
        changed += await sql.run('UPDATE oidc_model_instances SET id = ?, payload = ? WHERE model = ? AND id = ?', [id, stored, model, row.id]);
      }
    }
  }
  return changed;
}

/*
 * Ending what a client holds clears the process's read cache once its rows
 * are gone (other instances hear it from PostgreSQL: lib/db/read-cache.ts),
 * and reaches what Redis holds through the indexes of lib/db/redis-artifacts.ts.
 * What a person holds is read and ended in lib/account/repository.ts.
 */

/** A row that has not expired, with `?` for the time (epoch milliseconds). */
export const LIVE = '(expires_at IS NULL OR expires_at > ?)';

/** Ends everything a client holds: its grants, tokens, codes. */
export async function destroyArtifactsOfClient(db: Database, clientId: string): Promise<number> {
  const { sql, redisArtifacts, cache } = db;
  const grantIds = redisArtifacts ? await grantIdsWhere(sql, 'client_id = ?', [clientId]) : [];
  const [inTable, ofGrants, ofClient = 0] = await Promise.all([
    sql.run("DELETE FROM oidc_model_instances WHERE client_id = ? AND model <> 'Session'", [clientId]),
    destroyInRedisOfGrants(db, grantIds),
    redisArtifacts?.destroyOf('client', clientId),
  ]);
  cache.clear();
  return inTable + ofGrants + ofClient;
}

/**
 * Sign-in sessions that have not expired, for the metrics' gauge (lib/ops/metrics.ts),
 * once per scrape. The primary key (model, id) narrows it to the sessions; their
 * expiry is then read per row, so it costs one row per session.
 */
export async function countActiveSessions(sql: Sql, now: number): Promise<number> {
  const row = await sql.one<{ n: number | string | bigint }>(`SELECT COUNT(*) AS n FROM oidc_model_instances WHERE model = 'Session' AND ${LIVE}`, [now]);
  return Number(row?.n ?? 0);
}
