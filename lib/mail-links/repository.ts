/**
 * Single-use links sent by mail (prisma/schema/models.prisma `MailLink`).
 * Rows are keyed by the SHA-256 of the link's token: the token itself is only
 * ever in the mail. Spending one is a single conditional UPDATE (unused, not
 * expired), so two requests racing with one link cannot both win.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Database } from '../db/database.ts';
import { hashMailCode } from './codes.ts';

/**
 * `email_verification`: the link proves the person reads `email` (a new address becomes the account's only then);
 * `invitation`: an invited person chooses their first password with it, which verifies `email` too;
 * `account_unlock`: the owner lifts a lock that strangers' failed passwords put on new browsers (lib/mail-links/account-unlock.ts);
 * `sign_in_code`: a code alone, no link, that signs in to the account (lib/sign-in/email-codes.ts).
 */
export type MailLinkPurpose = 'password_reset' | 'email_verification' | 'invitation' | 'account_unlock' | 'sign_in_code';

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/** 256 random bits, base64url: what the link carries. */
export const newLinkToken = () => randomBytes(32).toString('base64url');

/**
 * Stores a link for `userId`, replacing their earlier unspent links of the same
 * purpose (only the newest mail works). Returns its id, for undoing it when the
 * mail cannot be sent. `keepEarlier`: the earlier ones stay until
 * `dropEarlierMailLinks`, called once the mail is sent, so a failed send takes
 * nothing away from a person who holds an earlier mail (an invitation resent).
 * `code`: a code mailed with the link, kept as its HMAC (lib/mail-links/codes.ts).
 */
export async function insertMailLink(
  db: Database,
  link: { token: string; userId: string; purpose: MailLinkPurpose; email: string; expiresAt: Date; code?: { code: string; expiresAt: Date } },
  options: { keepEarlier?: boolean } = {},
): Promise<string> {
  const id = hashOf(link.token);
  const code = link.code ? { codeHash: await hashMailCode(db, id, link.code.code), codeExpiresAt: link.code.expiresAt } : {};
  const create = db.prisma.mailLink.create({ data: { id, userId: link.userId, purpose: link.purpose, email: link.email, expiresAt: link.expiresAt, ...code } });
  if (options.keepEarlier) await create;
  else await db.prisma.$transaction([db.prisma.mailLink.deleteMany({ where: { userId: link.userId, purpose: link.purpose, usedAt: null } }), create]);
  return id;
}

/** Removes the unspent links of the same person and purpose as link `id`, other than it. */
export async function dropEarlierMailLinks(db: Database, id: string): Promise<void> {
  const link = await db.prisma.mailLink.findUnique({ where: { id }, select: { userId: true, purpose: true } });
  if (link) await db.prisma.mailLink.deleteMany({ where: { userId: link.userId, purpose: link.purpose, usedAt: null, id: { not: id } } });
}

/** Removes a link whose mail was never sent. */
export async function deleteMailLink(db: Database, id: string): Promise<void> {
  await db.prisma.mailLink.deleteMany({ where: { id } });
}

export interface MailLinkRecord {
  userId: string;
  email: string;
  expiresAt: Date;
  usedAt: Date | null;
}

/** The link a token names, whatever its state (the page says which: spent, expired), or undefined. */
export async function findMailLink(db: Database, token: string, purpose: MailLinkPurpose): Promise<MailLinkRecord | undefined> {
  const row = await db.prisma.mailLink.findFirst({
    where: { id: hashOf(token), purpose },
    select: { userId: true, email: true, expiresAt: true, usedAt: true },
  });
  return row ?? undefined;
}

/** What a link's page says of a token: `open` (unspent, unexpired at `now`, epoch ms) with the link, or why it does not work. */
export type MailLinkState = { status: 'open'; link: MailLinkRecord } | { status: 'expired' | 'used' | 'unknown' };

/** Looks only. A token longer than any we send is unknown without a query. */
export async function mailLinkState(db: Database, token: string, purpose: MailLinkPurpose, now: number): Promise<MailLinkState> {
  const link = token.length <= 64 ? await findMailLink(db, token, purpose) : undefined;
  if (!link) return { status: 'unknown' };
  if (link.usedAt) return { status: 'used' };
  if (link.expiresAt.getTime() <= now) return { status: 'expired' };
  return { status: 'open', link };
}

/** Spends a link: the link for the one request that found it unspent and unexpired, else undefined. */
export async function takeMailLink(db: Database, token: string, purpose: MailLinkPurpose, at: Date): Promise<MailLinkRecord | undefined> {
  const link = await findMailLink(db, token, purpose);
  return link && (await spendMailLink(db, token, purpose, at)) ? link : undefined;
}

/** Whether the person's newest link of `purpose` was spent (by its link or its code) at or after `since`. */
export async function mailLinkSpentSince(db: Database, userId: string, purpose: MailLinkPurpose, since: Date): Promise<boolean> {
  return (await db.prisma.mailLink.count({ where: { userId, purpose, usedAt: { gte: since } } })) > 0;
}

/** Spends a link: true only for the one request that found it unspent and unexpired. */
export async function spendMailLink(db: Database, token: string, purpose: MailLinkPurpose, at: Date): Promise<boolean> {
  const { count } = await db.prisma.mailLink.updateMany({ where: { id: hashOf(token), purpose, usedAt: null, expiresAt: { gt: at } }, data: { usedAt: at } });
  return count === 1;
}

/** When the person's unspent link of `purpose` stops working (the newest: a new one replaces the older), or undefined. */
export async function pendingMailLinkExpiry(db: Database, userId: string, purpose: MailLinkPurpose): Promise<Date | undefined> {
  const row = await db.prisma.mailLink.findFirst({ where: { userId, purpose, usedAt: null }, select: { expiresAt: true }, orderBy: { expiresAt: 'desc' } });
  return row?.expiresAt;
}
