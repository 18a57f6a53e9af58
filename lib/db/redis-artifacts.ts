/**
 * The provider's short-lived artifacts in Redis, when REDIS_URL is set
 * (lib/db/artifacts.ts decides which models live here, and hashes ids and
 * strips payloads exactly as for the table: a copy of Redis replays nothing).
 * This module only knows keys, Lua and ioredis; it never parses a payload.
 *
 * Layout, under `gatehouse:<namespace>:` (the namespace is a random value
 * kept in the database's server_secrets, so every instance of one deployment
 * shares it and two deployments sharing a Redis never see each other's
 * tokens):
 * - `a:<model>:<stored id>`: a hash, `p` the payload (JSON), `c` when it was
 *   consumed (epoch ms); it expires in Redis itself at the artifact's expiry.
 * - `g:<grant id>`, `c:<client id>`: sorted sets naming (`<model>:<stored id>`)
 *   the artifacts of a grant, or of a client when they have no grant (its
 *   client-credentials tokens), scored by their expiry, so that revoking a grant
 *   or deleting a client reaches what is held here (a person's artifacts are
 *   reached through their grants, which the database lists). One index per
 *   artifact: each write drops the members that have expired, and the set
 *   expires with its last member.
 *
 * Each operation is one command (the writes are Lua scripts, atomic in Redis),
 * and commands issued in the same turn of the event loop share one write to
 * the socket (ioredis' auto-pipelining). The scripts touch keys they compute,
 * so this needs one Redis (a primary, with or without replicas), not Redis Cluster.
 *
 * While Redis is lost (lib/db/redis-health.ts) every operation fails at once with
 * a `RedisUnavailable` that names it, instead of waiting for reconnections; a
 * command that fails on the wire is rethrown as one too, so the server_error line
 * of the request says Redis. lib/db/artifact-store.ts keeps access tokens in the
 * table meanwhile (`available()`); codes and interactions cannot do without it.
 */
import { Redis } from 'ioredis';
import type { Log } from '../ops/log.ts';
import { type RedisHealth, RedisUnavailable, redisHealth } from './redis-health.ts';

export interface RedisArtifactRow {
  payload: string;
  /** Epoch ms, or null when not consumed. */
  consumedAt: number | null;
}

export type ArtifactIndex = 'grant' | 'client';

export interface RedisArtifacts {
  /** Saves an artifact; `owner` names the index it joins (its grant, or its client), if any. */
  upsert(model: string, id: string, payload: string, owner: [ArtifactIndex, string] | undefined, expiresAt: number | null): Promise<void>;
  find(model: string, id: string): Promise<RedisArtifactRow | undefined>;
  /** Marks it consumed unless it already was (or is gone); true when this call consumed it. */
  consume(model: string, id: string, now: number): Promise<boolean>;
  destroy(model: string, id: string): Promise<void>;
  /** Deletes the artifacts of a grant or client (only `model`'s, when given); returns how many existed. */
  destroyOf(index: ArtifactIndex, owner: string, model?: string): Promise<number>;
  /** The payloads of a grant's or client's artifacts of these models that have not expired. */
  payloadsOf(index: ArtifactIndex, owner: string, models: readonly string[], now: number): Promise<{ model: string; payload: string }[]>;
  /** `gatehouse:<namespace>:`, which every key of this store starts with. */
  keyPrefix(): Promise<string>;
  /** Answers PING (connecting first, if not yet), or rejects with a `RedisUnavailable` within `timeoutMs`. */
  ping(timeoutMs?: number): Promise<void>;
  /** False while this store's connection is lost: its operations would fail. */
  available(): boolean;
  /** The process's view of this Redis (the throttle's client joins it: lib/db/throttle-store.ts). */
  readonly health: RedisHealth;
  close(): Promise<void>;
}

export interface RedisArtifactsOptions {
  /** Replaces `gatehouse` (tests). */
  keyPrefix?: string;
  /** Where Redis being lost and back is logged (the database handle's log). */
  log?: () => Pick<Log, 'error' | 'info'>;
}

const INDEX_LETTER: Record<ArtifactIndex, string> = { grant: 'g', client: 'c' };

// KEYS[1] the artifact, KEYS[2] (optional) its index; ARGV: payload, expiry ('' for none), now, its member name.
const UPSERT = `
redis.call('HSET', KEYS[1], 'p', ARGV[1])
local score = '+inf'
if ARGV[2] ~= '' then
  redis.call('PEXPIREAT', KEYS[1], ARGV[2])
  score = ARGV[2]
else
  redis.call('PERSIST', KEYS[1])
end
for i = 2, #KEYS do
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', '(' .. ARGV[3])
  redis.call('ZADD', KEYS[i], score, ARGV[4])
  local last = redis.call('ZRANGE', KEYS[i], -1, -1, 'WITHSCORES')
  if last[2] == 'inf' then redis.call('PERSIST', KEYS[i]) else redis.call('PEXPIREAT', KEYS[i], last[2]) end
end
return 1`;

// The single use of a code: of two requests consuming it at once, exactly one gets 1.
const CONSUME = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
return redis.call('HSETNX', KEYS[1], 'c', ARGV[1])`;

// KEYS[1] an index; ARGV: the artifacts' key prefix, a member prefix ('' for all).
const DESTROY_OF = `
local n = 0
for _, m in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  if ARGV[2] == '' or string.sub(m, 1, #ARGV[2]) == ARGV[2] then
    n = n + redis.call('DEL', ARGV[1] .. m)
    redis.call('ZREM', KEYS[1], m)
  end
end
return n`;

interface ArtifactCommands {
  gatehouseUpsert(numberOfKeys: number, ...args: (string | number)[]): Promise<number>;
  gatehouseConsume(key: string, now: number): Promise<number>;
  gatehouseDestroyOf(key: string, prefix: string, memberPrefix: string): Promise<number>;
}

/** Opens the store on `url`; `namespace()` is asked once, on first use. */
export function openRedisArtifacts(
  url: string,
  namespace: () => Promise<string>,
  { keyPrefix = 'gatehouse', log = quiet }: RedisArtifactsOptions = {},
): RedisArtifacts {
  // A command fails after two reconnection attempts instead of twenty (as the throttle's client):
  // a token request waiting on a Redis that is down should fail, not hang.
  // Connected on first use: a CLI command that touches no artifact never dials Redis.
  const redis = new Redis(url, { maxRetriesPerRequest: 2, enableAutoPipelining: true, lazyConnect: true }) as Redis & ArtifactCommands;
  const health = redisHealth(url, log);
  const watch = health.watch(redis);
  redis.defineCommand('gatehouseUpsert', { lua: UPSERT });
  redis.defineCommand('gatehouseConsume', { numberOfKeys: 1, lua: CONSUME });
  redis.defineCommand('gatehouseDestroyOf', { numberOfKeys: 1, lua: DESTROY_OF });

  let root: string | undefined;
  let rootRead: Promise<string> | undefined;
  const rootKey = async () => {
    if (root) return root;
    rootRead ??= namespace().then(
      (ns) => (root = `${keyPrefix}:${ns}:`),
      (error: unknown) => {
        rootRead = undefined; // asked again next time
        throw error;
      },
    );
    return rootRead;
  };
  const member = (model: string, id: string) => `${model}:${id}`;
  const indexKey = (prefix: string, index: ArtifactIndex, owner: string) => `${prefix}${INDEX_LETTER[index]}:${owner}`;

  /** Runs an operation unless Redis is lost, and names Redis in any failure of its own. */
  const guarded =
    <A extends unknown[], R>(operation: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      if (watch.lost()) throw new RedisUnavailable(health.where);
      await rootKey(); // read from the database: its failure stays the database's
      try {
        return await operation(...args);
      } catch (error) {
        throw isRedisFailure(error) ? new RedisUnavailable(health.where, error) : error;
      }
    };

  const store: Omit<RedisArtifacts, 'keyPrefix' | 'ping' | 'available' | 'health' | 'close'> = {
    async upsert(model, id, payload, owner, expiresAt) {
      const prefix = await rootKey();
      const keys = [`${prefix}a:${member(model, id)}`, ...(owner ? [indexKey(prefix, owner[0], owner[1])] : [])];
      await redis.gatehouseUpsert(keys.length, ...keys, payload, expiresAt ?? '', Date.now(), member(model, id));
    },
    async find(model, id) {
      const [payload, consumed] = await redis.hmget(`${await rootKey()}a:${member(model, id)}`, 'p', 'c');
      if (payload === null) return undefined;
      return { payload, consumedAt: consumed === null ? null : Number(consumed) };
    },
    async consume(model, id, now: number) {
      return (await redis.gatehouseConsume(`${await rootKey()}a:${member(model, id)}`, now)) === 1;
    },
    async destroy(model, id) {
      await redis.del(`${await rootKey()}a:${member(model, id)}`);
    },
    async destroyOf(index, owner, model) {
      const prefix = await rootKey();
      return redis.gatehouseDestroyOf(indexKey(prefix, index, owner), `${prefix}a:`, model ? `${model}:` : '');
    },
    async payloadsOf(index, owner, models, now: number) {
      const prefix = await rootKey();
      const members = (await redis.zrangebyscore(indexKey(prefix, index, owner), `(${now}`, '+inf')).filter((m) =>
        models.some((model) => m.startsWith(`${model}:`)),
      );
      const payloads = await Promise.all(members.map((m) => redis.hget(`${prefix}a:${m}`, 'p')));
      return members.flatMap((m, i) => (payloads[i] === null ? [] : [{ model: m.slice(0, m.indexOf(':')), payload: payloads[i]! }]));
    },
  };

  return {
    upsert: guarded(store.upsert),
    find: guarded(store.find),
    consume: guarded(store.consume),
    destroy: guarded(store.destroy),
    destroyOf: guarded(store.destroyOf),
    payloadsOf: guarded(store.payloadsOf),
    keyPrefix: rootKey,
    async ping(timeoutMs = 2000) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer to PING within ${timeoutMs} ms`)), timeoutMs);
      });
      try {
        await Promise.race([redis.ping(), timeout]);
      } catch (error) {
        throw new RedisUnavailable(health.where, error);
      } finally {
        clearTimeout(timer);
      }
    },
    available: () => !watch.lost(),
    health,
    async close() {
      watch.stop();
      if (redis.status === 'wait') return redis.disconnect();
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}

const quiet = () => ({ error() {}, info() {} });

/**
 * An error of the connection or of Redis itself (ioredis' own errors, a reply error,
 * a socket error), as opposed to one of ours such as a payload that does not parse.
 */
function isRedisFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return (
    error.name === 'MaxRetriesPerRequestError' ||
    error.name === 'ReplyError' ||
    typeof code === 'string' ||
    /connection|stream|socket|ECONN|ETIMEDOUT|EPIPE/i.test(error.message)
  );
}
