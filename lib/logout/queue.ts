/**
 * The durable queue of logout tokens still to deliver (OpenID Connect Back-Channel Logout 1.0 §2.7):
 * `backchannel_logouts`, one row per client and ended session. Written when a session ends, read by
 * the delivery (./delivery.ts) of every instance, which claims a row before it sends, so two instances
 * never send the same one at once; deleted once the client answered or the deliveries gave up.
 */
import { randomUUID } from 'node:crypto';
import type { Database } from '../db/database.ts';

/** A logout to deliver: the account whose session ended, the client signed in through it, and the session's sid for that client. */
export interface PendingLogout {
  clientId: string;
  accountId: string;
  sid: string | null;
}

export interface QueuedLogout extends PendingLogout {
  id: string;
  attempts: number;
  nextAttemptAt: number;
  createdAt: number;
}

/**
 * Queues the logouts of the clients that asked for them: enabled clients with a backchannel_logout_uri
 * (the provider's own logout queues through ./delivery.ts, which knows the client already). Returns how many.
 */
export async function queueLogouts(db: Database, logouts: PendingLogout[], now: number): Promise<number> {
  if (logouts.length === 0) return 0;
  const clientIds = [...new Set(logouts.map((l) => l.clientId))];
  const receivers = await db.prisma.client.findMany({
    where: { id: { in: clientIds }, enabled: true, backchannelLogoutUri: { not: null } },
    select: { id: true },
  });
  const wanted = new Set(receivers.map((c) => c.id));
  return insertLogouts(
    db,
    logouts.filter((l) => wanted.has(l.clientId)),
    now,
  );
}

/** Queues `logouts` as they are, due at once. */
export async function insertLogouts(db: Database, logouts: PendingLogout[], now: number): Promise<number> {
  if (logouts.length === 0) return 0;
  const { count } = await db.prisma.backchannelLogout.createMany({
    data: logouts.map((l) => ({
      id: randomUUID(),
      clientId: l.clientId,
      accountId: l.accountId,
      sid: l.sid,
      nextAttemptAt: BigInt(now),
      createdAt: BigInt(now),
    })),
  });
  return count;
}

/**
 * Up to `limit` rows due by `now`, each claimed until `now + leaseMs`: the claim moves its next attempt on,
 * and succeeds only where no other instance moved it first. What a claim returns is this caller's to send.
 */
export async function claimDueLogouts(db: Database, now: number, { limit, leaseMs }: { limit: number; leaseMs: number }): Promise<QueuedLogout[]> {
  const due = await db.prisma.backchannelLogout.findMany({
    where: { nextAttemptAt: { lte: BigInt(now) } },
    orderBy: { nextAttemptAt: 'asc' },
    take: limit,
  });
  const claimed: QueuedLogout[] = [];
  for (const row of due) {
    const { count } = await db.prisma.backchannelLogout.updateMany({
      where: { id: row.id, nextAttemptAt: row.nextAttemptAt },
      data: { nextAttemptAt: BigInt(now + leaseMs) },
    });
    if (count === 1) {
      claimed.push({
        id: row.id,
        clientId: row.clientId,
        accountId: row.accountId,
        sid: row.sid,
        attempts: row.attempts,
        nextAttemptAt: Number(row.nextAttemptAt),
        createdAt: Number(row.createdAt),
      });
    }
  }
  return claimed;
}

/** Delivered or given up: the row goes. */
export async function removeLogout(db: Database, id: string): Promise<void> {
  await db.prisma.backchannelLogout.deleteMany({ where: { id } });
}

/** A failed attempt: counted, with why (never the token), and due again at `nextAttemptAt`. */
export async function retryLogoutLater(
  db: Database,
  id: string,
  { attempts, nextAttemptAt, error }: { attempts: number; nextAttemptAt: number; error: string },
): Promise<void> {
  await db.prisma.backchannelLogout.updateMany({ where: { id }, data: { attempts, nextAttemptAt: BigInt(nextAttemptAt), lastError: error.slice(0, 300) } });
}

/** How many logouts wait, for the operator's view and the tests. */
export async function countQueuedLogouts(db: Database): Promise<number> {
  return db.prisma.backchannelLogout.count();
}

/** Empties the queue: BACKCHANNEL_LOGOUT is off, so nothing queued is ever sent. */
export async function dropQueuedLogouts(db: Database): Promise<number> {
  const { count } = await db.prisma.backchannelLogout.deleteMany({});
  return count;
}
