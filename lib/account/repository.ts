/**
 * A person's view of the provider's artifacts (lib/db/artifacts.ts, the store
 * that owns `oidc_model_instances`): their signed-in sessions and their grants
 * to apps, when each app last got something for them, ending any of it, and
 * which session a portal sign-in came from. Plain objects, by account. A
 * Session's id is the value of the browser's session cookie, so it never
 * leaves this module; sessions are named by their uid instead. Times in what
 * these return are epoch seconds, as in the provider's payloads.
 *
 * Each of those that ends something clears the process's read cache once its
 * rows are gone (other instances hear it from PostgreSQL: lib/db/read-cache.ts),
 * and reaches what Redis holds through the indexes of lib/db/redis-artifacts.ts.
 */
import type { OidcModelInstance } from '../generated/sqlite/client.ts';
import {
  destroyGrant,
  destroyInRedisOfGrants,
  findArtifact,
  findArtifactByUid,
  fromRedis,
  grantIdsWhere,
  hashArtifactId,
  LIVE as live,
  REDIS_MODELS,
  toPayload,
} from '../db/artifacts.ts';
import type { Database } from '../db/database.ts';
import { isRedisUnavailable } from '../db/redis-health.ts';
import type { RawRow } from '../db/rows.ts';
import { queueLogouts } from '../logout/queue.ts';
import { logoutsOfSessions } from '../logout/sessions.ts';

/**
 * Every session that ends here owes the clients signed in through it a logout token (OpenID Connect
 * Back-Channel Logout 1.0): read before the rows go, queued for the clients that registered a
 * backchannel_logout_uri (lib/logout/queue.ts). Expired sessions owe none: the clients' own sessions
 * ended with theirs. A session that ends between the read and the delete was ended by someone who
 * queued its logouts themselves, or expired.
 */
async function queueLogoutsOfSessions(db: Database, where: string, params: Array<string>, now = Date.now()): Promise<void> {
  const rows = await db.sql.all<PayloadRow>(`SELECT payload FROM oidc_model_instances WHERE model = 'Session' AND ${where} AND ${live}`, [...params, now]);
  await queueLogouts(db, logoutsOfSessions(rows.map(parse)), now);
}

/** Ends everything a user holds: sessions, grants, tokens, codes. */
export async function destroyArtifactsOfAccount(db: Database, accountId: string): Promise<number> {
  const { sql, redisArtifacts, cache } = db;
  await queueLogoutsOfSessions(db, 'account_id = ?', [accountId]);
  const grantIds = redisArtifacts ? await grantIdsWhere(sql, 'account_id = ?', [accountId]) : [];
  const [inTable, inRedis] = await Promise.all([
    sql.run('DELETE FROM oidc_model_instances WHERE account_id = ?', [accountId]),
    destroyInRedisOfGrants(db, grantIds),
  ]);
  cache.clear();
  return inTable + inRedis;
}

/** The uid of the Gatehouse session an access token was issued in (the provider records it on the token), when it has one. */
export async function sessionUidOfAccessToken({ sql, redisArtifacts }: Database, accessToken: string, now: number): Promise<string | undefined> {
  // Not in Redis (or Redis lost): one issued while Redis was lost is in the table (lib/db/artifact-store.ts).
  const held = redisArtifacts?.available()
    ? toPayload(fromRedis(await redisArtifacts.find('AccessToken', hashArtifactId(accessToken)).catch(unlessRedisLost)), now)
    : undefined;
  const payload = held ?? (await findArtifact(sql, 'AccessToken', accessToken, now));
  return typeof payload?.sessionUid === 'string' ? payload.sessionUid : undefined;
}

const unlessRedisLost = (error: unknown): undefined => {
  if (isRedisUnavailable(error)) return undefined;
  throw error;
};

/** Whether the Gatehouse session with this uid exists, has not expired, and is this account's. */
export async function isSessionOfAccount({ sql }: Database, accountId: string, uid: string, now: number): Promise<boolean> {
  const session = await findArtifactByUid(sql, 'Session', uid, now);
  return session?.accountId === accountId;
}

export interface AccountSession {
  uid: string;
  /** When the person signed in (the provider's loginTs). */
  loginTs: number | null;
  /** When the session was first stored. */
  iat: number | null;
  /** When it ends; pushed back each time the session is saved, i.e. used at the authorization endpoint. */
  exp: number | null;
  /** The clients signed in through this session. */
  clientIds: string[];
}

export interface AccountGrant {
  id: string;
  clientId: string;
  /** The OpenID Connect scopes granted, space-separated. */
  scope: string;
  iat: number | null;
  exp: number | null;
}

type PayloadRow = RawRow<OidcModelInstance, 'payload'>;

const seconds = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/** A payload read for display: one that does not parse reads as empty rather than failing a person's whole page. */
function parse(row: PayloadRow): Record<string, unknown> {
  try {
    const value = JSON.parse(row.payload) as unknown;
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The account's signed-in sessions that have not expired, newest sign-in first. */
export async function listSessionsOfAccount({ sql }: Database, accountId: string, now: number): Promise<AccountSession[]> {
  const rows = await sql.all<PayloadRow>(`SELECT payload FROM oidc_model_instances WHERE model = 'Session' AND account_id = ? AND ${live}`, [accountId, now]);
  return rows
    .map(parse)
    .filter((p) => typeof p.uid === 'string' && p.accountId === accountId)
    .map((p) => ({
      uid: p.uid as string,
      loginTs: seconds(p.loginTs),
      iat: seconds(p.iat),
      exp: seconds(p.exp),
      clientIds: p.authorizations && typeof p.authorizations === 'object' ? Object.keys(p.authorizations) : [],
    }))
    .sort((a, b) => (b.loginTs ?? b.iat ?? 0) - (a.loginTs ?? a.iat ?? 0));
}

/** Ends one of the account's sessions, by uid; returns how many rows went (0 or 1). */
export async function destroySessionOfAccount(db: Database, accountId: string, uid: string): Promise<number> {
  const { sql, cache } = db;
  await queueLogoutsOfSessions(db, 'account_id = ? AND uid = ?', [accountId, uid]);
  const removed = await sql.run("DELETE FROM oidc_model_instances WHERE model = 'Session' AND account_id = ? AND uid = ?", [accountId, uid]);
  cache.forget(`Session:${uid}`);
  return removed;
}

/** Ends every session of the account but the one with uid `keepUid` (every one, without it); returns how many. */
export async function destroySessionsOfAccountExcept(db: Database, accountId: string, keepUid?: string): Promise<number> {
  const { sql, cache } = db;
  await (keepUid
    ? queueLogoutsOfSessions(db, 'account_id = ? AND (uid IS NULL OR uid <> ?)', [accountId, keepUid])
    : queueLogoutsOfSessions(db, 'account_id = ?', [accountId]));
  const removed = keepUid
    ? await sql.run("DELETE FROM oidc_model_instances WHERE model = 'Session' AND account_id = ? AND (uid IS NULL OR uid <> ?)", [accountId, keepUid])
    : await sql.run("DELETE FROM oidc_model_instances WHERE model = 'Session' AND account_id = ?", [accountId]);
  cache.clear();
  return removed;
}

/** The account's grants that have not expired, oldest first. */
export async function listGrantsOfAccount({ sql }: Database, accountId: string, now: number): Promise<AccountGrant[]> {
  const rows = await sql.all<RawRow<OidcModelInstance, 'id' | 'clientId' | 'payload'>>(
    `SELECT id, client_id, payload FROM oidc_model_instances WHERE model = 'Grant' AND account_id = ? AND ${live}`,
    [accountId, now],
  );
  return rows
    .map((row) => ({ row, p: parse(row) }))
    .filter(({ row, p }) => row.client_id && p.accountId === accountId)
    .map(({ row, p }) => {
      const openid = p.openid && typeof p.openid === 'object' ? (p.openid as { scope?: unknown }) : {};
      return { id: row.id, clientId: row.client_id!, scope: typeof openid.scope === 'string' ? openid.scope : '', iat: seconds(p.iat), exp: seconds(p.exp) };
    })
    .sort((a, b) => (a.iat ?? 0) - (b.iat ?? 0));
}

/**
 * When each client last got something for this account (an authorization
 * code, an access or a refresh token), by client_id: what the artifacts still
 * held can tell. Expired access tokens are swept away, so for an app that
 * only refreshes now and then this may be older than its real last use.
 */
export async function lastIssuedByClient({ sql, redisArtifacts }: Database, accountId: string, now: number): Promise<Map<string, number>> {
  const inRedis = ['AuthorizationCode', 'AccessToken', 'RefreshToken'].filter((model) => REDIS_MODELS.has(model));
  const [rows, held] = await Promise.all([
    sql.all<RawRow<OidcModelInstance, 'clientId' | 'payload'>>(
      `SELECT client_id, payload FROM oidc_model_instances
       WHERE account_id = ? AND model IN ('AuthorizationCode', 'AccessToken', 'RefreshToken') AND ${live}`,
      [accountId, now],
    ),
    // What Redis holds of a person is reached through their grants. A display only: while Redis is lost, the table's figures.
    redisArtifacts
      ? grantIdsWhere(sql, 'account_id = ?', [accountId]).then((grantIds) =>
          Promise.all(grantIds.map((grantId) => redisArtifacts.payloadsOf('grant', grantId, inRedis, now).catch(unlessRedisLost))).then((lists) =>
            lists.flatMap((list) => list ?? []),
          ),
        )
      : [],
  ]);
  const latest = new Map<string, number>();
  const fromRedis = held.map((row) => ({ payload: row.payload, client_id: parse(row).clientId }));
  for (const row of [...rows, ...fromRedis]) {
    const iat = seconds(parse(row).iat);
    if (typeof row.client_id !== 'string' || iat === null) continue;
    latest.set(row.client_id, Math.max(iat, latest.get(row.client_id) ?? 0));
  }
  return latest;
}

/**
 * Revokes what a client holds for this account: its grants and every code and
 * token issued to it for this person (sessions stay: they are the person's,
 * not the client's). Returns the grant ids and how many rows went.
 */
export async function destroyGrantsOfAccountForClient(db: Database, accountId: string, clientId: string): Promise<{ grantIds: string[]; removed: number }> {
  const { sql, cache } = db;
  const grants = await sql.all<{ id: string }>("SELECT id FROM oidc_model_instances WHERE model = 'Grant' AND account_id = ? AND client_id = ?", [
    accountId,
    clientId,
  ]);
  const inTable = await sql.run("DELETE FROM oidc_model_instances WHERE account_id = ? AND client_id = ? AND model <> 'Session'", [accountId, clientId]);
  // Anything else carrying one of these grants (as the adapter's revokeByGrantId would find it), Redis included.
  let ofGrants = 0;
  for (const grant of grants) ofGrants += await destroyGrant(db, grant.id);
  cache.clear();
  return { grantIds: grants.map((g) => g.id), removed: inTable + ofGrants };
}
