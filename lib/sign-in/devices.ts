/**
 * Device cookies (OWASP, "Slow Down Online Guessing Attacks with Device Cookies"): a browser
 * that signed in to an account with its password, or that opened the account's mailed unlock
 * link, carries a cookie that proves so. A password attempt from it spends that browser's own
 * budget (lib/platform/throttle.ts), which a stranger guessing from elsewhere, or from the same
 * address, cannot spend: the owner is never locked out by someone else's failures.
 *
 * The cookie holds up to five entries (a browser shared by a few people), each a random device
 * id and an HMAC over (account id, device id) with a server secret: it names no account, and
 * nobody can make one for an account they cannot sign in to. Nothing is stored server-side;
 * a device id's own failures are counted under it like any other key.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Database } from '../db/database.ts';
import { serverSecret } from '../db/secrets.ts';

export const DEVICE_COOKIE = 'gatehouse_device';
/** Entries kept in one browser's cookie: the most recent first. */
const MAX_ENTRIES = 5;
/** A year: a known browser stays known as long as it is used now and then. */
const MAX_AGE_SECONDS = 365 * 86_400;

interface Entry {
  device: string;
  mac: string;
}

const keys = new WeakMap<Database, Map<string, Promise<string>>>();

/**
 * The HMAC key of a signed cookie of the sign-in pages, by its server secret's name: one per
 * database, so every instance checks every other's cookies; a failed read is tried again next time.
 */
export function cookieKey(db: Database, name: string): Promise<string> {
  let byName = keys.get(db);
  if (!byName) keys.set(db, (byName = new Map()));
  let key = byName.get(name);
  if (!key) {
    key = serverSecret(db, name, () => randomBytes(32).toString('base64url')).catch((error) => {
      byName.delete(name);
      throw error;
    });
    byName.set(name, key);
  }
  return key;
}

const keyOf = (db: Database) => cookieKey(db, 'device_cookie_key');

const macOf = (key: string, accountId: string, device: string) =>
  createHmac('sha256', key).update(`${accountId}\0${device}`).digest().subarray(0, 16).toString('base64url');

/** The cookie's entries, as far as they are well-formed (anything else in it is ignored). */
function entriesOf(cookieHeader: string | null): Entry[] {
  const value = cookieValue(cookieHeader, DEVICE_COOKIE);
  if (!value || value.length > 400) return [];
  return value
    .split('.')
    .map((part) => part.split('~'))
    .filter((pair): pair is [string, string] => pair.length === 2 && /^[\w-]{22}$/.test(pair[0]) && /^[\w-]{22}$/.test(pair[1]))
    .slice(0, MAX_ENTRIES)
    .map(([device, mac]) => ({ device, mac }));
}

/** One cookie's value in a Cookie header. */
export function cookieValue(header: string | null, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return undefined;
}

function matches(key: string, accountId: string, entry: Entry): boolean {
  const expected = Buffer.from(macOf(key, accountId, entry.device));
  const presented = Buffer.from(entry.mac);
  return expected.length === presented.length && timingSafeEqual(expected, presented);
}

/** The device id this browser holds for `accountId`, if its cookie proves one. */
export async function knownDevice(db: Database, accountId: string, cookieHeader: string | null): Promise<string | undefined> {
  const entries = entriesOf(cookieHeader);
  if (entries.length === 0) return undefined;
  const key = await keyOf(db);
  return entries.find((entry) => matches(key, accountId, entry))?.device;
}

/**
 * The Set-Cookie value that makes this browser known to `accountId` (keeping its device id
 * if it had one, and the other accounts' entries after it). `secure`: the issuer is https.
 */
export async function rememberDevice(db: Database, accountId: string, cookieHeader: string | null, secure: boolean): Promise<string> {
  const key = await keyOf(db);
  const entries = entriesOf(cookieHeader);
  const own = entries.find((entry) => matches(key, accountId, entry));
  const device = own?.device ?? randomBytes(16).toString('base64url');
  const kept = [{ device, mac: macOf(key, accountId, device) }, ...entries.filter((entry) => entry !== own)].slice(0, MAX_ENTRIES);
  const value = kept.map((entry) => `${entry.device}~${entry.mac}`).join('.');
  // Path=/: the sign-in form posts under /interaction, the unlock link's page is elsewhere; only this server reads it.
  return `${DEVICE_COOKIE}=${value}; Path=/; Max-Age=${MAX_AGE_SECONDS}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}
