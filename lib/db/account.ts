/**
 * What one person holds at the provider, read from `oidc_model_instances`:
 * their sign-in sessions, their grants (one per client they connected, or
 * more), and when each client last got a token. Plain objects only: a
 * Session's id is the value of the browser's session cookie, so it never
 * leaves this module; sessions are named by their uid instead. Times are
 * epoch seconds, as in the provider's payloads.
 */
import { destroyGrant } from './artifacts.ts';
import type { Sql } from './sql.ts';

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

interface PayloadRow {
  [key: string]: unknown;
  payload: string;
}

const live = '(expires_at IS NULL OR expires_at > ?)';
const seconds = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : null);

function parse(row: PayloadRow): Record<string, unknown> {
  try {
    const value = JSON.parse(row.payload) as unknown;
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The account's signed-in sessions that have not expired, newest sign-in first. */
export async function listSessionsOfAccount(sql: Sql, accountId: string, now = Date.now()): Promise<AccountSession[]> {
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
export async function destroySessionOfAccount(sql: Sql, accountId: string, uid: string): Promise<number> {
  return sql.run("DELETE FROM oidc_model_instances WHERE model = 'Session' AND account_id = ? AND uid = ?", [accountId, uid]);
}

/** Ends every session of the account but the one with uid `keepUid` (every one, without it); returns how many. */
export async function destroySessionsOfAccountExcept(sql: Sql, accountId: string, keepUid?: string): Promise<number> {
  if (!keepUid) return sql.run("DELETE FROM oidc_model_instances WHERE model = 'Session' AND account_id = ?", [accountId]);
  return sql.run("DELETE FROM oidc_model_instances WHERE model = 'Session' AND account_id = ? AND (uid IS NULL OR uid <> ?)", [accountId, keepUid]);
}

/** The account's grants that have not expired, oldest first. */
export async function listGrantsOfAccount(sql: Sql, accountId: string, now = Date.now()): Promise<AccountGrant[]> {
  const rows = await sql.all<PayloadRow & { id: string; client_id: string | null }>(
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
export async function lastIssuedByClient(sql: Sql, accountId: string, now = Date.now()): Promise<Map<string, number>> {
  const rows = await sql.all<PayloadRow & { client_id: string | null }>(
    `SELECT client_id, payload FROM oidc_model_instances
     WHERE account_id = ? AND model IN ('AuthorizationCode', 'AccessToken', 'RefreshToken') AND ${live}`,
    [accountId, now],
  );
  const latest = new Map<string, number>();
  for (const row of rows) {
    const iat = seconds(parse(row).iat);
    if (!row.client_id || iat === null) continue;
    latest.set(row.client_id, Math.max(iat, latest.get(row.client_id) ?? 0));
  }
  return latest;
}

/**
 * Revokes what a client holds for this account: its grants and every code and
 * token issued to it for this person (sessions stay: they are the person's,
 * not the client's). Returns the grant ids and how many rows went.
 */
export async function destroyGrantsOfAccountForClient(sql: Sql, accountId: string, clientId: string): Promise<{ grantIds: string[]; removed: number }> {
  const grants = await sql.all<{ id: string }>("SELECT id FROM oidc_model_instances WHERE model = 'Grant' AND account_id = ? AND client_id = ?", [accountId, clientId]);
  const removed = await sql.run("DELETE FROM oidc_model_instances WHERE account_id = ? AND client_id = ? AND model <> 'Session'", [accountId, clientId]);
  // Anything else carrying one of these grants (as the adapter's revokeByGrantId would find it).
  for (const grant of grants) await destroyGrant(sql, grant.id);
  return { grantIds: grants.map((g) => g.id), removed };
}
