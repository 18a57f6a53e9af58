/**
 * A process's cache of what the provider reads on every token, introspection
 * and userinfo request and what changes seldom: grants, sessions (by uid),
 * accounts, and whether a client must wait after failed authentications.
 *
 * On PostgreSQL several instances share the data: a change to a cached row,
 * made by any instance, the CLI, the portal or a migration, reaches every
 * instance as a NOTIFY on the `gatehouse_cache` channel, sent at commit by the
 * triggers of the migration `cache_invalidation` (on oidc_model_instances'
 * grants and sessions, `clients` and `users`). Triggers rather than a publish
 * call in the code: nothing that writes these tables can forget them, and a
 * notification is never sent for a write that rolled back.
 *
 * On SQLite each server process writes through its own connection; the other
 * workers of the server (WORKERS), the CLI and Prisma (another connection of
 * the same process) write beside it. Before the first read of each event-loop
 * turn the cache asks SQLite's `PRAGMA data_version`, which changes whenever
 * another connection has committed: then it forgets everything first
 * (sqliteReadCache).
 *
 * The rules that keep it correct on PostgreSQL:
 * - Entries are kept only while this process listens (a connection of its
 *   own, LISTEN gatehouse_cache). Until the first LISTEN has succeeded, and
 *   from a lost connection until LISTEN succeeds again, every read goes to the
 *   database; a reconnection forgets everything, since notifications may have
 *   been missed meanwhile.
 * - The instance that makes a change forgets the entry itself as soon as its
 *   write has committed (`forget`, `clear`), so it never waits for its own
 *   notification.
 * - An entry is stored as the read starts: a change notified while the read
 *   is in flight removes that very entry, so what the read returns (possibly
 *   older than the change) is not kept.
 * - No entry outlives MAX_AGE_MS (nor the expiry of the artifact it holds):
 *   the bound for a notification lost without the connection being seen to
 *   drop. Nothing missing is kept, so unknown ids cannot fill the map.
 *
 * A handle that reads nothing through the provider (the CLI's) never starts
 * listening, and so never keeps anything.
 */
import pg from 'pg';
import { splitSchema } from './sql.ts';

/** The longest an entry is kept, whatever the notifications say: a lost notification leaves another instance this far behind at most. */
export const READ_CACHE_MAX_AGE_MS = 5_000;
const MAX_ENTRIES = 50_000;
/** PostgreSQL's channel, one for every schema; each notification's payload starts with its schema. */
export const CACHE_CHANNEL = 'gatehouse_cache';

export interface ReadCacheWatcher {
  /** A key changed elsewhere (`Client:<id>` included, which this cache does not hold). */
  forget(key: string): void;
  /** Anything may have changed: forget everything. */
  clear(): void;
}

export interface ReadCache {
  /**
   * `load()` through the cache. `expiresAt` says when a loaded value stops
   * being valid (epoch ms), or null for never; undefined values are not kept.
   */
  read<T>(key: string, load: () => Promise<T | undefined>, expiresAt?: (value: T) => number | null): Promise<T | undefined>;
  /** Forgets one key here, after this process changed what it names. */
  forget(key: string): void;
  /** Forgets everything here, after this process changed rows it cannot name one by one. */
  clear(): void;
  /**
   * Forgets `key` here and has every other instance forget it: for what no
   * trigger sees (the throttle's counters, which may live in Redis).
   */
  publish(key: string): Promise<void>;
  /** Also tells `watcher` of every change notified (another cache of the process: clients), once listening. */
  watch(watcher: ReadCacheWatcher): void;
  /**
   * Hears of other connections' commits now, as a read would (SQLite: data_version, once per turn), and
   * tells the watchers: for a watcher's cache read before this one in a request (the clients' metadata,
   * at client authentication), so that it never serves what another worker changed. PostgreSQL's
   * notifications arrive by themselves.
   */
  follow(): void;
  /** Whether entries are kept now (for tests and the metrics). */
  readonly active: boolean;
  close(): Promise<void>;
}

/** A cache that keeps nothing (tests that build a Database by hand). */
export const noReadCache: ReadCache = {
  read: (_key, load) => load(),
  forget() {},
  clear() {},
  async publish() {},
  watch() {},
  follow() {},
  active: false,
  async close() {},
};

interface Entry {
  value: Promise<unknown>;
  expiresAt: number;
}

/** The entries and the rules on them that both databases share (see the top of this file). */
function entryStore() {
  const entries = new Map<string, Entry>();
  return {
    entries,
    read<T>(key: string, load: () => Promise<T | undefined>, expiresAt?: (value: T) => number | null): Promise<T | undefined> {
      const now = Date.now();
      const hit = entries.get(key);
      if (hit && hit.expiresAt > now) return hit.value as Promise<T | undefined>;
      if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
      const entry: Entry = { value: load(), expiresAt: now + READ_CACHE_MAX_AGE_MS };
      entries.set(key, entry);
      const drop = () => {
        if (entries.get(key) === entry) entries.delete(key);
      };
      entry.value.then((value) => {
        if (value === undefined) return drop();
        const until = expiresAt?.(value as T);
        if (until !== undefined && until !== null && until < entry.expiresAt) entry.expiresAt = until;
      }, drop);
      return entry.value as Promise<T | undefined>;
    },
  };
}

/**
 * The cache of a SQLite database: `dataVersion` is the server's connection's
 * PRAGMA data_version (lib/db/sql.ts), asked before the first read of each
 * event-loop turn. Once a turn, not before every read: the pragma opens a read
 * transaction of its own (two lock system calls), and a token request read
 * through the cache three times. A request that starts after another
 * connection's commit has returned starts in a later turn (its bytes arrive as
 * a new I/O event), so it still sees the change; only requests already being
 * served in the turn of that commit may not, as they could not had they run a
 * moment earlier.
 */
export function sqliteReadCache(dataVersion: () => number): ReadCache {
  const store = entryStore();
  const watchers: ReadCacheWatcher[] = [];
  let seen: number | undefined;
  let checkedThisTurn = false;
  const clear = () => {
    store.entries.clear();
    for (const watcher of watchers) watcher.clear();
  };
  const checkOncePerTurn = () => {
    if (checkedThisTurn) return;
    checkedThisTurn = true;
    setImmediate(() => {
      checkedThisTurn = false;
    });
    const version = dataVersion();
    if (version !== seen) {
      clear();
      seen = version;
    }
  };
  return {
    read(key, load, expiresAt) {
      checkOncePerTurn();
      return store.read(key, load, expiresAt);
    },
    forget(key) {
      store.entries.delete(key);
    },
    clear,
    // Every process on the database hears of a commit by data_version: there is no one to tell.
    async publish(key) {
      store.entries.delete(key);
    },
    watch(watcher) {
      watchers.push(watcher);
    },
    follow: checkOncePerTurn,
    active: true,
    async close() {
      store.entries.clear();
    },
  };
}

export interface PostgresReadCacheOptions {
  /** Sends `pg_notify(CACHE_CHANNEL, <schema>:<key>)` through the database's pool (lib/db/database.ts). */
  notify(key: string): Promise<void>;
  /** Where a lost or failed listening connection is reported (never with the URL). */
  onError?: (message: string, error: unknown) => void;
  /** First wait before connecting again; doubles up to 30 s. */
  retryMs?: number;
}

/** The cache of a PostgreSQL database (its URL, `?schema=` included). */
export function postgresReadCache(url: string, { notify, onError = () => undefined, retryMs = 500 }: PostgresReadCacheOptions): ReadCache {
  const { connectionString, schema } = splitSchema(url);
  const store = entryStore();
  const { entries } = store;
  const watchers: ReadCacheWatcher[] = [];
  let listening = false;
  let started = false;
  let closed = false;
  let client: pg.Client | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let wait = retryMs;
  let prefix = '';

  const clear = () => {
    entries.clear();
    for (const watcher of watchers) watcher.clear();
  };
  /** `from` failed: forget everything, and connect again later (once per failed connection). */
  const lost = (from: pg.Client, message: string, error: unknown) => {
    if (closed || from !== client) return;
    listening = false;
    clear();
    onError(message, error);
    client = undefined;
    from.removeAllListeners('end');
    void from.end().catch(() => undefined);
    retryTimer = setTimeout(connect, wait);
    retryTimer.unref();
    wait = Math.min(wait * 2, 30_000);
  };
  const onNotification = (message: pg.Notification) => {
    const payload = message.payload ?? '';
    if (!payload.startsWith(prefix)) return; // another schema's
    const key = payload.slice(prefix.length);
    entries.delete(key);
    for (const watcher of watchers) watcher.forget(key);
  };
  async function connect() {
    if (closed) return;
    const next = new pg.Client({
      connectionString,
      keepAlive: true,
      // So that an operator (and the tests) can tell it apart in pg_stat_activity.
      application_name: `gatehouse-cache-listener${schema ? `:${schema}` : ''}`.slice(0, 63),
      options: schema ? `-c search_path=${schema}` : undefined,
    });
    client = next;
    next.on('error', (error) => lost(next, 'the connection listening for cache changes failed', error));
    next.on('end', () => lost(next, 'the connection listening for cache changes ended', undefined));
    next.on('notification', onNotification);
    try {
      await next.connect();
      // The schema the triggers name (TG_TABLE_SCHEMA): the first of the search_path that exists.
      const { rows } = await next.query<{ schema: string }>('SELECT current_schema() AS schema');
      prefix = `${rows[0].schema}:`;
      await next.query(`LISTEN ${CACHE_CHANNEL}`);
    } catch (error) {
      lost(next, 'listening for cache changes failed', error);
      return;
    }
    if (closed || client !== next) return;
    // Whatever was kept before may have missed a notification.
    clear();
    wait = retryMs;
    listening = true;
  }
  const start = () => {
    if (started || closed) return;
    started = true;
    void connect();
  };

  return {
    read(key, load, expiresAt) {
      start();
      if (!listening) return load();
      return store.read(key, load, expiresAt);
    },
    forget(key) {
      entries.delete(key);
    },
    clear,
    async publish(key) {
      entries.delete(key);
      await notify(key);
    },
    watch(watcher) {
      watchers.push(watcher);
    },
    follow() {},
    get active() {
      return listening;
    },
    async close() {
      closed = true;
      listening = false;
      clearTimeout(retryTimer);
      entries.clear();
      const open = client;
      client = undefined;
      open?.removeAllListeners('end');
      await open?.end().catch(() => undefined);
    },
  };
}
