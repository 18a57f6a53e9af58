/**
 * Linking an upstream identity to an account that exists here, safe by default: never by the email
 * alone. An unknown identity whose address names an account is linked only when the upstream vouches
 * for the address (`email_verified`), the account's address is verified here too, and the person
 * proves the account in the same interaction: its password or passkey, and its second step when it has
 * one. The sign-in use cases (lib/sign-in/interactions.ts) call `linkPendingIdentity` once the person
 * proved the account, whichever way; it links only when the account they proved is the one the
 * address named.
 */
import { z } from 'zod';
import { findArtifact, takeArtifact, upsertArtifact } from '../db/artifacts.ts';
import type { Database } from '../db/database.ts';
import { recordAudit, userTarget, type RequestContext } from '../audit/log.ts';
import { findAccount } from '../users/repository.ts';
import { findConnection, insertIdentity, touchIdentity, type ConnectionRecord, type IdentityRecord } from './repository.ts';
import { LINK_MODEL } from './round-trip.ts';

const linkSchema = z.object({ connectionId: z.string(), issuer: z.string(), subject: z.string(), email: z.string() });
export type PendingLink = z.output<typeof linkSchema>;

export async function savePendingLink(db: Database, uid: string, link: PendingLink, expiresAt: number): Promise<void> {
  await upsertArtifact(db.sql, LINK_MODEL, uid, link, expiresAt);
}

/** The connection's name, while an identity waits in interaction `uid` for the person to sign in. */
export async function pendingLinkConnection(db: Database, uid: string, now: number): Promise<string | undefined> {
  const link = linkSchema.safeParse(await findArtifact(db.sql, LINK_MODEL, uid, now));
  if (!link.success) return undefined;
  return (await findConnection(db, link.data.connectionId))?.displayName;
}

/**
 * After the person proved `accountId` in interaction `uid`: links the waiting identity when the
 * account's verified address is the one the upstream vouched for. Returns whether it linked.
 */
export async function linkPendingIdentity(ctx: { db: Database; now: () => number }, uid: string, accountId: string, context: RequestContext): Promise<boolean> {
  const parsed = linkSchema.safeParse(await takeArtifact(ctx.db.sql, LINK_MODEL, uid, ctx.now()));
  if (!parsed.success) return false;
  const link = parsed.data;
  const [account, connection] = await Promise.all([findAccount(ctx.db, accountId), findConnection(ctx.db, link.connectionId)]);
  if (!account || !connection?.enabled || !account.emailVerified || account.email?.toLowerCase() !== link.email.toLowerCase()) return false;
  const person = { id: account.id, username: account.username };
  const identity = { issuer: link.issuer, subject: link.subject, email: link.email };
  return Boolean(await addIdentity(ctx.db, person, connection, identity, new Date(ctx.now()), 'local_sign_in', context));
}

/**
 * Links an upstream identity to `person`, with the upstream's tokens when the connection keeps them, and
 * records it (`identity.linked`, `via`): the one way every path (just in time, after proving the account
 * at sign-in, from /account) adds an identity. Undefined when the issuer and subject are linked already,
 * to anyone: the key stays with its holder.
 */
export async function addIdentity(
  db: Database,
  person: { id: string; username: string },
  connection: ConnectionRecord,
  upstream: { issuer: string; subject: string; email: string | null; tokens?: Record<string, unknown> },
  at: Date,
  via: 'just_in_time' | 'local_sign_in' | 'account',
  context: RequestContext,
): Promise<IdentityRecord | undefined> {
  let identity: IdentityRecord;
  try {
    identity = await insertIdentity(db, {
      userId: person.id,
      connectionId: connection.id,
      issuer: upstream.issuer,
      subject: upstream.subject,
      email: upstream.email,
      at,
    });
  } catch (error) {
    if ((error as { code?: string }).code === 'P2002') return undefined; // linked meanwhile (another tab, another person)
    throw error;
  }
  if (connection.keepTokens && upstream.tokens) await touchIdentity(db, identity.id, at, upstream.email, upstream.tokens);
  await recordAudit(db, { action: 'identity.linked', actor: person, target: userTarget(person), context, details: { connection: connection.slug, via } });
  return identity;
}
