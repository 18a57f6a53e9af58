/**
 * The provider's hottest statements on `oidc_model_instances`, on PostgreSQL,
 * batched across concurrent requests (lib/db/tick-batch.ts): the saves, the
 * lookups by id, the token lookups and the consumption of codes and refresh
 * tokens that requests make in the same turn of the event loop go as one
 * statement per model, whose rows or ids travel as one JSON parameter. The
 * lookups compare `id = ANY(<the ids>)`, which the primary key serves whatever
 * plan PostgreSQL has kept for the prepared statement (a join on the JSON rows
 * may be planned as a sequential scan while the table is small). Each
 * batched statement costs PostgreSQL and the driver a fraction of what the same
 * statements cost one by one (bench/results/notes-2026-11-25-store.md); a lone
 * call goes as the single statement it always was. lib/db/artifacts.ts calls
 * these with ids already hashed and payloads already stripped, and keeps SQLite,
 * whose statements run in the process, on its own path.
 */
import type { ArtifactRow } from './artifacts.ts';
import type { Sql } from './sql.ts';
import { tickBatch } from './tick-batch.ts';

export interface StoredArtifact {
  model: string;
  /** As stored: hashed where the id is a credential. */
  id: string;
  payload: string;
  grant_id: string | null;
  client_id: string | null;
  account_id: string | null;
  uid: string | null;
  user_code: string | null;
  expires_at: number | null;
}

type Key = { model: string; id: string };
type KeyedRow = ArtifactRow & Key;

/** The ids as a text[] from one JSON parameter: exact, whatever characters an id holds. */
const IDS = 'ARRAY(SELECT json_array_elements_text(?::json))';

/** Groups calls by model, keeping each call's position. */
function byModel<T extends { model: string }>(calls: T[]): Map<string, { call: T; at: number }[]> {
  const groups = new Map<string, { call: T; at: number }[]>();
  calls.forEach((call, at) => {
    const group = groups.get(call.model) ?? [];
    group.push({ call, at });
    groups.set(call.model, group);
  });
  return groups;
}

const columns = 'model, id, payload, expires_at, consumed_at';
const key = ({ model, id }: Key) => `${model}\0${id}`;
const SET_ON_CONFLICT = `ON CONFLICT (model, id) DO UPDATE SET payload = excluded.payload, grant_id = excluded.grant_id,
  client_id = excluded.client_id, account_id = excluded.account_id, uid = excluded.uid,
  user_code = excluded.user_code, expires_at = excluded.expires_at`;

/** `tokenModels`: the SQL list of the models a token value can belong to (lib/db/artifacts.ts TOKEN_MODELS). */
function batchesFor(sql: Sql, tokenModels: string) {
  /** Saves; the last of two saves of one artifact in a batch wins, as it would one after the other. */
  const upsert = tickBatch(async (rows: StoredArtifact[]) => {
    const last = [...new Map(rows.map((row) => [key(row), row])).values()];
    if (last.length === 1) {
      const r = last[0];
      await sql.run(
        `INSERT INTO oidc_model_instances (model, id, payload, grant_id, client_id, account_id, uid, user_code, expires_at, consumed_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL) ${SET_ON_CONFLICT}`,
        [r.model, r.id, r.payload, r.grant_id, r.client_id, r.account_id, r.uid, r.user_code, r.expires_at],
        { durable: false },
      );
    } else {
      await sql.run(
        `INSERT INTO oidc_model_instances (model, id, payload, grant_id, client_id, account_id, uid, user_code, expires_at, consumed_at)
         SELECT model, id, payload, grant_id, client_id, account_id, uid, user_code, expires_at, NULL
         FROM json_to_recordset(?::json) AS r(model text, id text, payload text, grant_id text, client_id text, account_id text, uid text, user_code text, expires_at bigint)
         ${SET_ON_CONFLICT}`,
        [JSON.stringify(last)],
        { durable: false },
      );
    }
    return rows.map(() => undefined);
  });

  const find = tickBatch(async (keys: Key[]): Promise<(ArtifactRow | undefined)[]> => {
    const found: (ArtifactRow | undefined)[] = keys.map(() => undefined);
    const lookups = [...byModel(keys)].map(async ([model, group]) => {
      const ids = [...new Set(group.map(({ call }) => call.id))];
      const rows =
        ids.length === 1
          ? await sql.all<KeyedRow>(`SELECT ${columns} FROM oidc_model_instances WHERE model = ? AND id = ?`, [model, ids[0]])
          : await sql.all<KeyedRow>(`SELECT ${columns} FROM oidc_model_instances WHERE model = ? AND id = ANY(${IDS})`, [model, JSON.stringify(ids)]);
      const byId = new Map(rows.map((row) => [row.id, row]));
      for (const { call, at } of group) found[at] = byId.get(call.id);
    });
    await Promise.all(lookups);
    return found;
  });

  /** Every token row under each (hashed) value: a token looked up as all its kinds at once. */
  const findTokens = tickBatch(async (ids: string[]): Promise<KeyedRow[][]> => {
    const distinct = [...new Set(ids)];
    const rows =
      distinct.length === 1
        ? await sql.all<KeyedRow>(`SELECT ${columns} FROM oidc_model_instances WHERE model IN (${tokenModels}) AND id = ?`, distinct)
        : await sql.all<KeyedRow>(`SELECT ${columns} FROM oidc_model_instances WHERE model IN (${tokenModels}) AND id = ANY(${IDS})`, [
            JSON.stringify(distinct),
          ]);
    return ids.map((id) => rows.filter((row) => row.id === id));
  });

  /**
   * Marks consumed; true for the one call that consumed each artifact. The
   * conditional UPDATE decides between batches and between instances; within
   * a batch, of two calls for one artifact only the first can win.
   */
  const consume = tickBatch(async (calls: (Key & { at: number })[]): Promise<boolean[]> => {
    const won: boolean[] = calls.map(() => false);
    const updates = [...byModel(calls)].map(async ([model, group]) => {
      const ids = [...new Set(group.map(({ call }) => call.id))];
      const at = group[0].call.at;
      const consumed =
        ids.length === 1
          ? await sql.all<{ id: string }>('UPDATE oidc_model_instances SET consumed_at = ? WHERE model = ? AND id = ? AND consumed_at IS NULL RETURNING id', [
              at,
              model,
              ids[0],
            ])
          : await sql.all<{ id: string }>(
              `UPDATE oidc_model_instances SET consumed_at = ? WHERE model = ? AND id = ANY(${IDS}) AND consumed_at IS NULL RETURNING id`,
              [at, model, JSON.stringify(ids)],
            );
      const unclaimed = new Set(consumed.map((row) => row.id));
      // The first call for each consumed id wins; a second call for it in the same batch loses.
      for (const { call, at: position } of group) won[position] = unclaimed.delete(call.id);
    });
    await Promise.all(updates);
    return won;
  });

  return { upsert, find, findTokens, consume };
}

const batches = new WeakMap<Sql, ReturnType<typeof batchesFor>>();

/** The batches of a PostgreSQL driver (one set per pool). */
export function postgresBatches(sql: Sql, tokenModels: string): ReturnType<typeof batchesFor> {
  let mine = batches.get(sql);
  if (!mine) batches.set(sql, (mine = batchesFor(sql, tokenModels)));
  return mine;
}
