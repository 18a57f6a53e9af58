/**
 * The accounts a browser remembers for its account chooser (as Google's "Choose an account"):
 * each account whose password (or passkey) was right in this browser, the most recent first, at
 * most five. The cookie names the accounts by their ids only, signed with an HMAC of a server
 * secret so that no one can put an account on someone's chooser; names, emails and initials are
 * read from the accounts when the page is drawn, so a rename shows and a deleted or disabled
 * account drops out. Nothing in it signs anyone in: picking an account fills its username into
 * the sign-in form, and its password or passkey is asked as for anyone. Signing out leaves the
 * list as it is; "Remove" takes one account off it.
 *
 * No 'server-only' marker: tested under node:test, like devices.ts.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Database } from '../db/database.ts';
import { findAccount } from '../users/repository.ts';
import { cookieKey, cookieValue } from './devices.ts';

export const ACCOUNTS_COOKIE = 'gatehouse_accounts';
const MAX_ACCOUNTS = 5;
/** A year: the chooser remembers a browser's accounts as long as the browser is used now and then. */
const MAX_AGE_SECONDS = 365 * 86_400;
const ID = /^[\w-]{1,64}$/;

export interface RememberedAccount {
  id: string;
  username: string;
  name?: string;
  email?: string;
}

const keyOf = (db: Database) => cookieKey(db, 'account_list_key');
const macOf = (key: string, ids: string[]) => createHmac('sha256', key).update(ids.join('\0')).digest().subarray(0, 16).toString('base64url');

/** The account ids the browser's cookie proves, in its order (none when it is missing, malformed or not ours). */
export async function rememberedIds(db: Database, cookieHeader: string | null): Promise<string[]> {
  const value = cookieValue(cookieHeader, ACCOUNTS_COOKIE);
  if (!value || value.length > 500) return [];
  const [list, mac] = value.split('~');
  const ids = (list ?? '').split('.');
  if (!mac || ids.length > MAX_ACCOUNTS || !ids.every((id) => ID.test(id))) return [];
  const expected = Buffer.from(macOf(await keyOf(db), ids));
  const presented = Buffer.from(mac);
  return expected.length === presented.length && timingSafeEqual(expected, presented) ? ids : [];
}

/** The chooser's accounts: those still there and enabled, as they are named now. */
export async function rememberedAccounts(db: Database, cookieHeader: string | null): Promise<RememberedAccount[]> {
  const ids = await rememberedIds(db, cookieHeader);
  const accounts = await Promise.all(ids.map((id) => findAccount(db, id)));
  return accounts
    .filter((account) => account !== undefined && !account.disabled)
    .map((account) => ({ id: account!.id, username: account!.username, name: account!.name ?? undefined, email: account!.email ?? undefined }));
}

async function cookieOf(db: Database, ids: string[], secure: boolean): Promise<string> {
  const flags = `Path=/interaction; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
  if (ids.length === 0) return `${ACCOUNTS_COOKIE}=; ${flags}; Max-Age=0`;
  return `${ACCOUNTS_COOKIE}=${ids.join('.')}~${macOf(await keyOf(db), ids)}; ${flags}; Max-Age=${MAX_AGE_SECONDS}`;
}

/** The Set-Cookie value that puts `accountId` first on the browser's list (keeping the others after it). */
export async function rememberAccount(db: Database, accountId: string, cookieHeader: string | null, secure: boolean): Promise<string> {
  const ids = [accountId, ...(await rememberedIds(db, cookieHeader)).filter((id) => id !== accountId)].slice(0, MAX_ACCOUNTS);
  return cookieOf(db, ids, secure);
}

/** The Set-Cookie value that takes `accountId` off the browser's list. */
export async function forgetAccount(db: Database, accountId: string, cookieHeader: string | null, secure: boolean): Promise<string> {
  return cookieOf(
    db,
    (await rememberedIds(db, cookieHeader)).filter((id) => id !== accountId),
    secure,
  );
}
