/**
 * What the search boxes (users, clients, the audit log) match: the text typed,
 * literally and ignoring case, anywhere in a column.
 *
 * Prisma 7 turns `contains` into `LIKE '%' || value || '%'` and passes `%`
 * and `_` through as wildcards on both databases: "a_c" found "abc". So the
 * value is escaped here with a backslash. PostgreSQL's LIKE and ILIKE take the
 * backslash as their escape character by default; SQLite's LIKE has none
 * unless the statement says ESCAPE, which Prisma's does not, so the SQLite
 * connection Prisma uses gets a like() of its own (`installLiteralLike`) that
 * honours the same backslash. SQLite documents replacing like() as the way to
 * change what the LIKE operator does.
 */
import type BetterSqlite3 from 'better-sqlite3';
import type { SqlDriverAdapter } from '@prisma/driver-adapter-utils';

/** `value` with the LIKE wildcards and the escape character itself escaped. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * The Prisma filter "contains `value`, literally, ignoring case". PostgreSQL
 * needs mode: 'insensitive', which the SQLite client's types (standing for
 * both, see lib/db/database.ts) do not know; SQLite's like() below folds case.
 */
export function containsText(kind: 'sqlite' | 'postgresql', value: string): { contains: string } {
  const contains = escapeLike(value);
  return (kind === 'postgresql' ? { contains, mode: 'insensitive' } : { contains }) as { contains: string };
}

const PATTERN_CACHE_SIZE = 200;

/** A LIKE pattern as an anchored, case-insensitive regular expression: `%` any run, `_` one character, `\x` x itself. */
export function likePattern(pattern: string, escapeChar = '\\'): RegExp {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === escapeChar && i + 1 < pattern.length) source += escapeRegExp(pattern[++i]);
    else if (c === '%') source += '.*';
    else if (c === '_') source += '.';
    else source += escapeRegExp(c);
  }
  return new RegExp(`^${source}$`, 'isu');
}

const escapeRegExp = (c: string) => c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/**
 * Replaces like() on a better-sqlite3 connection: SQLite's own semantics
 * (case-insensitive, `%` and `_`), plus a backslash escape when the statement
 * names none. NULL on either side is NULL, as with the built-in.
 */
export function installLiteralLike(db: BetterSqlite3.Database): void {
  const cache = new Map<string, RegExp>();
  const compile = (pattern: string, escapeChar: string) => {
    const key = `${escapeChar}\u0000${pattern}`;
    let regex = cache.get(key);
    if (!regex) {
      if (cache.size >= PATTERN_CACHE_SIZE) cache.clear();
      regex = likePattern(pattern, escapeChar);
      cache.set(key, regex);
    }
    return regex;
  };
  db.function('like', { deterministic: true, varargs: true }, (pattern: unknown, value: unknown, escapeChar?: unknown) => {
    if (pattern === null || value === null || pattern === undefined || value === undefined) return null;
    return compile(String(pattern), typeof escapeChar === 'string' && escapeChar ? escapeChar : '\\').test(String(value)) ? 1 : 0;
  });
}

/** Prisma's better-sqlite3 adapter factory, with `installLiteralLike` on every connection it opens. */
export function withLiteralLike<F extends { connect(): Promise<SqlDriverAdapter> }>(factory: F): F {
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = (await connect()) as SqlDriverAdapter & { client?: BetterSqlite3.Database };
    // The adapter keeps its better-sqlite3 handle as `client` (@prisma/adapter-better-sqlite3 7.10);
    // without one, searches would silently go back to wildcards: refuse instead.
    if (!adapter.client || typeof adapter.client.function !== 'function') throw new Error('the SQLite adapter exposes no connection to install like() on');
    installLiteralLike(adapter.client);
    return adapter;
  };
  return factory;
}
