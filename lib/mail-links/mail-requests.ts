/**
 * "Send me a mail" forms (password reset, a sign-up's "send the link again")
 * must answer a name that has no account as they answer one that has: the
 * throttle counts mails per account (lib/platform/throttle.ts
 * beforeMailRequest), so a name without one is counted under a stable
 * pseudonym of its own, or the 7th request would tell the two apart.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { Database } from '../db/database.ts';
import { serverSecret } from '../db/secrets.ts';

/**
 * The counter a name that has no account is throttled under: a stable id from
 * an HMAC of what was typed (case folded, as usernames are), under a server secret
 * of its own. What was typed is never stored; the prefix cannot be an account's id.
 */
export async function unknownNameKey(db: Database, identifier: string): Promise<string> {
  let key = nameKeys.get(db);
  if (!key) {
    // One secret shared by every instance; a failed read is tried again next time.
    key = serverSecret(db, 'mail_request_name_key', () => randomBytes(32).toString('base64url')).catch((error: unknown) => {
      nameKeys.delete(db);
      throw error;
    });
    nameKeys.set(db, key);
  }
  return `name:${createHmac('sha256', await key)
    .update(identifier.toLowerCase())
    .digest('base64url')}`;
}

const nameKeys = new WeakMap<Database, Promise<string>>();
