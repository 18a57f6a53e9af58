/**
 * Storage for oidc-provider's artifacts (sessions, interactions, codes, tokens,
 * grants...) in the one `oidc_model_instances` table. Raw prepared statements
 * (lib/db/sql.ts): the provider makes several of these calls per token request.
 * Times are epoch milliseconds.
 */
import type { Sql } from './sql.ts';

export interface ArtifactPayload {
  grantId?: string;
  clientId?: string;
  accountId?: string;
  uid?: string;
  userCode?: string;
  [key: string]: unknown;
}

interface ArtifactRow {
  [key: string]: unknown;
  payload: string;
  expires_at: string | number | null;
  consumed_at: string | number | null;
}

const columns = 'payload, expires_at, consumed_at';

/** A stored artifact, or undefined when missing or expired. `consumed` is set in epoch seconds, as the provider expects. */
function toPayload(row: ArtifactRow | undefined, now: number): ArtifactPayload | undefined {
  if (!row) return undefined;
  if (row.expires_at !== null && Number(row.expires_at) <= now) return undefined;
  const payload = JSON.parse(row.payload) as ArtifactPayload;
  if (row.consumed_at !== null) payload.consumed = Math.floor(Number(row.consumed_at) / 1000);
  return payload;
}

/** Saving fails safe if lost in a database crash (the artifact does not exist): see Sql.run's `durable`. */
export async function upsertArtifact(sql: Sql, model: string, id: string, payload: ArtifactPayload, expiresAt: number | null) {
  await sql.run(
    `INSERT INTO oidc_model_instances (model, id, payload, grant_id, client_id, account_id, uid, user_code, expires_at, consumed_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)
     ON CONFLICT (model, id) DO UPDATE SET payload = excluded.payload, grant_id = excluded.grant_id,
       client_id = excluded.client_id, account_id = excluded.account_id, uid = excluded.uid,
       user_code = excluded.user_code, expires_at = excluded.expires_at`,
    [
      model,
      id,
      JSON.stringify(payload),
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

export async function findArtifact(sql: Sql, model: string, id: string, now = Date.now()) {
  const row = await sql.one<ArtifactRow>(`SELECT ${columns} FROM oidc_model_instances WHERE model = ? AND id = ?`, [model, id]);
  return toPayload(row, now);
}

/** The models an opaque token value can belong to. */
export const TOKEN_MODELS = ['AccessToken', 'ClientCredentials', 'RefreshToken'] as const;
const tokenModelList = TOKEN_MODELS.map((model) => `'${model}'`).join(', ');
const tokenReads = new WeakMap<Sql, Map<string, Promise<Array<ArtifactRow & { model: string }>>>>();

/**
 * A token by value, as one of TOKEN_MODELS. Introspection and revocation look a
 * token up as all three kinds at once; lookups of one value made in the same
 * turn of the event loop share one query (one statement, or one PostgreSQL round
 * trip, instead of three). The shared read is forgotten at the next turn, so it
 * never outlives the request that made it.
 */
export async function findTokenArtifact(sql: Sql, model: (typeof TOKEN_MODELS)[number], id: string, now = Date.now()) {
  let reads = tokenReads.get(sql);
  if (!reads) tokenReads.set(sql, (reads = new Map()));
  let rows = reads.get(id);
  if (!rows) {
    if (reads.size === 0) setImmediate(() => reads.clear());
    rows = sql.all<ArtifactRow & { model: string }>(
      `SELECT model, ${columns} FROM oidc_model_instances WHERE model IN (${tokenModelList}) AND id = ?`,
      [id],
    );
    reads.set(id, rows);
  }
  return toPayload((await rows).find((row) => row.model === model), now);
}

export async function findArtifactByUid(sql: Sql, model: string, uid: string, now = Date.now()) {
  const row = await sql.one<ArtifactRow>(`SELECT ${columns} FROM oidc_model_instances WHERE model = ? AND uid = ?`, [model, uid]);
  return toPayload(row, now);
}

export async function findArtifactByUserCode(sql: Sql, model: string, userCode: string, now = Date.now()) {
  const row = await sql.one<ArtifactRow>(`SELECT ${columns} FROM oidc_model_instances WHERE model = ? AND user_code = ?`, [
    model,
    userCode,
  ]);
  return toPayload(row, now);
}

/**
 * Marks an artifact consumed. Returns false when it was already consumed (or is
 * gone): the conditional UPDATE is what makes a code or refresh token usable
 * exactly once even when two requests race for it.
 */
export async function consumeArtifact(sql: Sql, model: string, id: string, now = Date.now()): Promise<boolean> {
  const changed = await sql.run(
    'UPDATE oidc_model_instances SET consumed_at = ? WHERE model = ? AND id = ? AND consumed_at IS NULL',
    [now, model, id],
  );
  return changed === 1;
}

export async function grantIdOfArtifact(sql: Sql, model: string, id: string): Promise<string | undefined> {
  const row = await sql.one<{ grant_id: string | null }>('SELECT grant_id FROM oidc_model_instances WHERE model = ? AND id = ?', [
    model,
    id,
  ]);
  return row?.grant_id ?? undefined;
}

export async function destroyArtifact(sql: Sql, model: string, id: string) {
  await sql.run('DELETE FROM oidc_model_instances WHERE model = ? AND id = ?', [model, id]);
}

export async function destroyArtifactsByGrantId(sql: Sql, model: string, grantId: string) {
  await sql.run('DELETE FROM oidc_model_instances WHERE model = ? AND grant_id = ?', [model, grantId]);
}

/** Every artifact of a grant, whatever its model, and the grant itself (RFC 6749 §10.5 on code reuse). */
export async function destroyGrant(sql: Sql, grantId: string) {
  await sql.run("DELETE FROM oidc_model_instances WHERE grant_id = ? OR (model = 'Grant' AND id = ?)", [grantId, grantId]);
}

/** Ends everything a client holds: its grants, tokens, codes. */
export async function destroyArtifactsOfClient(sql: Sql, clientId: string): Promise<number> {
  return sql.run("DELETE FROM oidc_model_instances WHERE client_id = ? AND model <> 'Session'", [clientId]);
}

/** Ends everything a user holds: sessions, grants, tokens, codes. */
export async function destroyArtifactsOfAccount(sql: Sql, accountId: string): Promise<number> {
  return sql.run('DELETE FROM oidc_model_instances WHERE account_id = ?', [accountId]);
}

/** Removes expired rows; returns how many. */
export async function deleteExpiredArtifacts(sql: Sql, now = Date.now()): Promise<number> {
  return sql.run('DELETE FROM oidc_model_instances WHERE expires_at IS NOT NULL AND expires_at <= ?', [now]);
}
