/**
 * "Send me a mail" forms (password reset, a sign-up's "send the link again")
 * must answer a name that has no account as they answer one that has: the
 * throttle counts mails per account (lib/platform/throttle.ts
 * beforeMailRequest), so a name without one is counted under a stable
 * pseudonym of its own, or the 7th request would tell the two apart.
 */
import { createHmac } from 'node:crypto';
import type { Database } from '../db/database.ts';
import { randomServerSecret } from '../db/secrets.ts';

const nameKey = randomServerSecret('mail_request_name_key');

/**
 * The counter a name that has no account is throttled under: a stable id from
 * an HMAC of what was typed (case folded, as usernames are), under a server secret
 * of its own. What was typed is never stored; the prefix cannot be an account's id.
 */
export async function unknownNameKey(db: Database, identifier: string): Promise<string> {
  return `name:${createHmac('sha256', await nameKey(db))
    .update(identifier.toLowerCase())
    .digest('base64url')}`;
}
