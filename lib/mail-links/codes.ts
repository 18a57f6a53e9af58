/**
 * Six-digit codes mailed beside a link (an email verification, a sign-up's), or alone (an email
 * sign-in code): the code belongs to the same `MailLink` row as the link, so using one spends the
 * other. What guards a code that a million tries would find:
 *
 * - Wrong codes are counted on the row: the `MAX_CODE_FAILURES`th spends it, and the person asks
 *   for a new mail (itself throttled per account and source: lib/platform/throttle.ts
 *   beforeMailRequest). Callers count wrong codes per source address too (throttle.linkFailed).
 *   With 5 tries per mail, a guesser's odds are 5 in a million per mail they can make us send.
 * - A code works for `CODE_MINUTES`, fewer than the link's 24 hours: a link is opened whenever the
 *   mail is read, on any device, but a code is typed into the page that is waiting for it, within
 *   minutes; and a code is short enough to be read off a lock screen's notification or over a
 *   shoulder, so it should not outlive the moment it is for.
 * - At rest only an HMAC-SHA256 of it, under a server secret of its own and bound to the row's id:
 *   a plain SHA-256 of six digits is undone by trying all of them. Compared in constant time.
 */
import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import type { Database } from '../db/database.ts';
import { randomServerSecret } from '../db/secrets.ts';
import type { MailLinkPurpose, MailLinkRecord } from './repository.ts';

export const CODE_DIGITS = 6;
export const CODE_MINUTES = 15;
export const MAX_CODE_FAILURES = 5;

/** Six decimal digits from the crypto generator, leading zeros kept. */
export const newMailCode = () =>
  randomInt(0, 10 ** CODE_DIGITS)
    .toString()
    .padStart(CODE_DIGITS, '0');

/**
 * What was typed, as the six digits it names (spaces and dashes a person copies along are dropped),
 * or why it cannot be a code: `code_missing`, `code_letters`, `code_length` (the page's own words for
 * a TOTP code's same problems). A malformed code is not counted as a wrong one.
 */
export function readMailCode(typed: string): { ok: true; code: string } | { ok: false; problem: 'code_missing' | 'code_letters' | 'code_length' } {
  const code = typed.replace(/[\s-]/g, '');
  if (!code) return { ok: false, problem: 'code_missing' };
  if (!/^\d+$/.test(code)) return { ok: false, problem: 'code_letters' };
  if (code.length !== CODE_DIGITS) return { ok: false, problem: 'code_length' };
  return { ok: true, code };
}

const codeKey = randomServerSecret('mail_code_key');

/** What the row keeps of the code mailed with link `linkId`. */
export async function hashMailCode(db: Database, linkId: string, code: string): Promise<string> {
  return createHmac('sha256', await codeKey(db))
    .update(`${linkId}:${code}`)
    .digest('hex');
}

/** Whether two hashes are the same, in time that does not depend on where they differ. */
export function sameCodeHash(stored: string, typed: string): boolean {
  const a = Buffer.from(stored, 'hex');
  const b = Buffer.from(typed, 'hex');
  return a.length === b.length && a.length > 0 && timingSafeEqual(a, b);
}

/**
 * `spent`: the code was right; the row (link and code) is used now. `wrong`: counted; `left` tries
 * remain on this mail. `exhausted`: that was the last try, the mail's link and code are spent.
 * `expired`: the code's time is over (the link may still work). `none`: no unspent mail with a code.
 */
export type CodeOutcome =
  | { status: 'spent'; link: MailLinkRecord & { id: string } }
  | { status: 'wrong'; left: number }
  | { status: 'exhausted' | 'expired' | 'none' };

/**
 * Checks `code` against the newest unspent mail of `purpose` to `userId` (a new mail replaces the
 * earlier ones: lib/mail-links/repository.ts insertMailLink), and spends it when right.
 */
export async function spendMailCode(db: Database, userId: string, purpose: MailLinkPurpose, code: string, at: Date): Promise<CodeOutcome> {
  const row = await db.prisma.mailLink.findFirst({
    where: { userId, purpose, usedAt: null, codeHash: { not: null } },
    orderBy: { createdAt: 'desc' },
    select: { id: true, userId: true, email: true, expiresAt: true, usedAt: true, codeHash: true, codeExpiresAt: true, codeFailures: true },
  });
  if (!row?.codeHash) return { status: 'none' };
  if (row.expiresAt <= at || (row.codeExpiresAt && row.codeExpiresAt <= at)) return { status: 'expired' };
  if (sameCodeHash(row.codeHash, await hashMailCode(db, row.id, code))) {
    // One conditional update: two requests racing with the right code cannot both win, nor one after the last wrong try.
    const { count } = await db.prisma.mailLink.updateMany({
      where: { id: row.id, usedAt: null, codeFailures: { lt: MAX_CODE_FAILURES } },
      data: { usedAt: at },
    });
    return count === 1
      ? { status: 'spent', link: { id: row.id, userId: row.userId, email: row.email, expiresAt: row.expiresAt, usedAt: at } }
      : { status: 'none' };
  }
  const { count } = await db.prisma.mailLink.updateMany({ where: { id: row.id, usedAt: null }, data: { codeFailures: { increment: 1 } } });
  if (count === 0) return { status: 'none' };
  const after = await db.prisma.mailLink.findUnique({ where: { id: row.id }, select: { codeFailures: true } });
  const failures = after?.codeFailures ?? MAX_CODE_FAILURES;
  if (failures < MAX_CODE_FAILURES) return { status: 'wrong', left: MAX_CODE_FAILURES - failures };
  await db.prisma.mailLink.updateMany({ where: { id: row.id, usedAt: null }, data: { usedAt: at } });
  return { status: 'exhausted' };
}
