/**
 * Whether Redis answers, as the process's ioredis clients see it (the
 * artifacts' in lib/db/redis-artifacts.ts, the throttle's in
 * lib/db/throttle-store.ts), one watch per Redis URL and database handle.
 *
 * Every client it watches gets an `error` listener: without one ioredis writes
 * a plain-text line to stderr for every failed reconnection (dozens in a few
 * seconds of an outage), which no collector parses. Instead the log gets one
 * JSON line when Redis is lost (at error) and one when it is back (at info),
 * each naming Redis by host and port (never the URL, which can carry a
 * password), and the state is what `gatehouse_redis_up` shows (lib/ops/metrics.ts).
 *
 * Lost: a client that was connected saw its connection close, or one that is
 * connecting saw an error. Back: every client that was lost is ready again.
 * ioredis keeps reconnecting by itself, so recovery is noticed without traffic.
 */
import type { Redis } from 'ioredis';
import type { Log } from '../ops/log.ts';

export type RedisState = 'unknown' | 'up' | 'down';

export interface RedisHealth {
  /** `host:port` of the Redis watched, as logged. */
  readonly where: string;
  /** Up: a client is connected and none is lost; unknown: none has connected or failed yet (lazy clients). */
  state(): RedisState;
  /**
   * Watches a client; `lost()` says whether that client is between a lost
   * connection and its return (its commands would wait for a reconnection, then fail).
   * Call `stop()` before closing the client on purpose, so the close is not logged as an outage.
   */
  watch(client: Redis): { lost(): boolean; stop(): void };
}

/** Thrown for a command that needs Redis while it is lost: the message names Redis, for the server_error line. */
export class RedisUnavailable extends Error {
  override readonly name = 'RedisUnavailable';
  constructor(where: string, cause?: unknown) {
    const detail = cause instanceof Error ? `: ${cause.message}` : '';
    super(`Redis at ${where} is unavailable${detail}`, cause === undefined ? undefined : { cause });
  }
}

/** By name, not instanceof: Next's module graphs can each load this file (lib/context.ts). */
export const isRedisUnavailable = (error: unknown): boolean => error instanceof Error && error.name === 'RedisUnavailable';

/** `host:port` of a redis:// or rediss:// URL, without its user or password. */
export function redisWhere(url: string): string {
  try {
    const { hostname, port } = new URL(url);
    return `${hostname || 'localhost'}:${port || 6379}`;
  } catch {
    return 'the configured REDIS_URL';
  }
}

export function redisHealth(url: string, log: () => Pick<Log, 'error' | 'info'>): RedisHealth {
  const where = redisWhere(url);
  /** Per watched client: connected now, and lost since its last `ready`. */
  const clients = new Map<Redis, { ready: boolean; lost: boolean }>();
  let reported: RedisState = 'unknown';

  const state = (): RedisState => {
    const all = [...clients.values()];
    if (all.some((c) => c.lost)) return 'down';
    return all.some((c) => c.ready) ? 'up' : 'unknown';
  };

  /** Logs once per change between up and down (unknown → up is the normal start and says nothing). */
  const report = (error?: unknown) => {
    const now = state();
    if (now === reported || now === 'unknown') return;
    const was = reported;
    reported = now;
    if (now === 'down') {
      log().error(
        { redis: where, event: 'redis_lost', err: error },
        `Redis at ${where} is unavailable: sign-ins in progress, authorization codes and Redis-held access tokens fail until it is back; the throttle counts in the database meanwhile`,
      );
    } else if (was === 'down') {
      log().info({ redis: where, event: 'redis_back' }, `Redis at ${where} is back`);
    }
  };

  return {
    where,
    state,
    watch(client) {
      const entry = { ready: client.status === 'ready', lost: false };
      clients.set(client, entry);
      let lastError: unknown;
      const onReady = () => {
        entry.ready = true;
        entry.lost = false;
        report();
      };
      const onClose = () => {
        const wasReady = entry.ready;
        entry.ready = false;
        if (wasReady) {
          entry.lost = true;
          report(lastError);
        }
      };
      const onError = (error: unknown) => {
        lastError = error;
        if (!entry.ready && !entry.lost) {
          // A first connection that fails, or one that errs before `close`.
          entry.lost = true;
          report(error);
        }
      };
      client.on('ready', onReady);
      client.on('close', onClose);
      client.on('error', onError);
      return {
        lost: () => entry.lost,
        stop() {
          client.off('ready', onReady);
          client.off('close', onClose);
          // The listener stays (a no-op from now on): a closing client may still emit, and an unheard error goes to stderr.
          client.off('error', onError);
          client.on('error', () => {});
          clients.delete(client);
        },
      };
    },
  };
}

/**
 * At start, with REDIS_URL: one line saying whether Redis answers. A Redis that
 * does not is no reason to refuse the start: the throttle counts in the
 * database and refresh and client-credentials grants keep working (lib/db/artifact-store.ts),
 * and refusing would take every instance down in a rolling restart
 * during a Redis outage. ioredis keeps dialing; "back" is logged when it answers.
 */
export async function checkRedisAtStart(
  store: { ping(): Promise<void>; readonly health: Pick<RedisHealth, 'where'> } | undefined,
  log: Pick<Log, 'info' | 'warn'>,
): Promise<void> {
  if (!store) return;
  const { where } = store.health;
  try {
    await store.ping();
    log.info({ redis: where }, `Redis at ${where} answers`);
  } catch (error) {
    log.warn(
      { redis: where, event: 'redis_unreachable_at_start', err: error },
      `REDIS_URL is set but Redis at ${where} does not answer: starting without it. Sign-ins and authorization codes fail until it answers; refresh and client-credentials grants and the throttle use the database meanwhile`,
    );
  }
}
