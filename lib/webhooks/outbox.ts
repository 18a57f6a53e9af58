/**
 * The webhook outbox (`webhook_deliveries`): one row per event and endpoint that wants it, written in the
 * audit entry's own transaction (lib/audit/log.ts), sent by every instance (./delivery.ts), which claims a
 * row before it sends so two instances never send the same one at once (the shape of the logout queue,
 * lib/logout/queue.ts). Unlike logout tokens, rows stay after delivery: they are the endpoint's history
 * the admins read, until WEBHOOK_HISTORY_DAYS.
 *
 * Order per subject: a row is claimable only while no earlier row of its endpoint and subject is still
 * pending, so `user.deleted` never overtakes the `user.updated` before it, however long that one's
 * retries take. Ids are UUIDv7s, so id order is creation order.
 */
import { auditEventId } from '../audit/repository.ts';
import type { AlongsideWrites } from '../audit/repository.ts';
import type { Database } from '../db/database.ts';
import { insertRows } from '../db/sql.ts';
import { webhookEventOf, type AuditedChange } from './events.ts';

export const deliveryStatuses = ['pending', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof deliveryStatuses)[number];

/** `msg_` and the 32 hex digits of a UUIDv7: the `webhook-id`, the same at every attempt, sorting in creation order. */
export const messageId = (now: number) => `msg_${auditEventId(now).replaceAll('-', '')}`;

/**
 * The outbox rows audited changes add, as writes to make in their audit entries' transaction (raw statements:
 * entries are appended on the raw driver): one per change that raises an event and enabled endpoint that wants
 * it, in the changes' order; none when nobody listens.
 */
export async function outboxWritesFor(db: Database, changes: AuditedChange[]): Promise<AlongsideWrites> {
  const events = changes.flatMap((change) => {
    const event = webhookEventOf(change);
    return event ? [{ event, now: change.at.getTime() }] : [];
  });
  if (events.length === 0) return [];
  // Through the raw driver: sign-ins raise events, and Prisma Client's per-query cost is not worth paying on them.
  const endpoints = await db.sql.all<{ id: string; events: string }>('SELECT id, events FROM webhook_endpoints WHERE enabled');
  const wanted = endpoints.map((endpoint) => ({ id: endpoint.id, events: new Set(endpoint.events.split(' ')) }));
  const rows = events.flatMap(({ event, now }) => {
    const payload = JSON.stringify(event.payload);
    return wanted
      .filter((endpoint) => endpoint.events.has(event.type))
      .map((endpoint) => [messageId(now), endpoint.id, event.type, event.subject, payload, 'pending', 0, now, now]);
  });
  return insertRows('INSERT INTO webhook_deliveries (id, endpoint_id, type, subject, payload, status, attempts, next_attempt_at, created_at)', rows);
}

/** A claimed delivery: what to send, where, and with which (opened) secret. */
export interface ClaimedDelivery {
  id: string;
  endpointId: string;
  url: string;
  /** The endpoint's `whsec_` secret, opened for signing: never logged, never returned. */
  secret: string;
  payload: string;
  attempts: number;
  createdAt: number;
}

export const endpointSecretContext = (endpointId: string) => `webhook_endpoints:${endpointId}`;

/**
 * Up to `limit` due rows of enabled endpoints, each the earliest pending one of its endpoint and subject,
 * claimed until `now + leaseMs`: the claim moves its next attempt on and succeeds only where no other
 * instance moved it first. What a claim returns is this caller's to send.
 */
export async function claimDueDeliveries(db: Database, now: number, { limit, leaseMs }: { limit: number; leaseMs: number }): Promise<ClaimedDelivery[]> {
  // One statement for both dialects: the NOT EXISTS keeps rows behind a pending one of their subject out,
  // so a subject in a long retry never fills the batch and holds the others up.
  const due = await db.sql.all<{ id: string }>(
    `SELECT d.id FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
     WHERE e.enabled AND d.status = 'pending' AND d.next_attempt_at <= ?
       AND NOT EXISTS (SELECT 1 FROM webhook_deliveries p
                       WHERE p.endpoint_id = d.endpoint_id AND p.subject = d.subject AND p.status = 'pending' AND p.id < d.id)
     ORDER BY d.id LIMIT ?`,
    [now, limit],
  );
  const claimed: string[] = [];
  for (const { id } of due) {
    const { count } = await db.prisma.webhookDelivery.updateMany({
      where: { id, status: 'pending', nextAttemptAt: { lte: BigInt(now) } },
      data: { nextAttemptAt: BigInt(now + leaseMs) },
    });
    if (count === 1) claimed.push(id);
  }
  if (claimed.length === 0) return [];
  const rows = await db.prisma.webhookDelivery.findMany({
    where: { id: { in: claimed } },
    include: { endpoint: { select: { url: true, secret: true } } },
    orderBy: { id: 'asc' },
  });
  return rows.map((row) => ({
    id: row.id,
    endpointId: row.endpointId,
    url: row.endpoint.url,
    secret: db.keyring.open(row.endpoint.secret, endpointSecretContext(row.endpointId)),
    payload: row.payload,
    attempts: row.attempts,
    createdAt: Number(row.createdAt),
  }));
}

/** What one attempt came to: the answer's status (null: none came) and a short excerpt of its body. */
export interface AttemptOutcome {
  attempts: number;
  at: number;
  status: number | null;
  error: string | null;
  excerpt: string | null;
}

const EXCERPT = 300;

/** The receiver took it: delivered, and its endpoint answers again. */
export async function markDelivered(db: Database, id: string, endpointId: string, outcome: AttemptOutcome): Promise<void> {
  await db.prisma.$transaction([
    db.prisma.webhookDelivery.updateMany({
      where: { id },
      data: {
        status: 'delivered',
        attempts: outcome.attempts,
        lastAttemptAt: BigInt(outcome.at),
        lastStatus: outcome.status,
        lastError: null,
        responseExcerpt: outcome.excerpt?.slice(0, EXCERPT) ?? null,
      },
    }),
    db.prisma.webhookEndpoint.updateMany({ where: { id: endpointId }, data: { consecutiveFailures: 0, failingSince: null } }),
  ]);
}

/**
 * A failed attempt: due again at `nextAttemptAt`, or `failed` for good when it is null. The endpoint's
 * run of failures grows; returns it (how many in a row, since when) for the decision to disable it.
 */
export async function markAttemptFailed(
  db: Database,
  id: string,
  endpointId: string,
  outcome: AttemptOutcome & { nextAttemptAt: number | null },
): Promise<{ consecutiveFailures: number; failingSince: number } | undefined> {
  await db.prisma.webhookDelivery.updateMany({
    where: { id },
    data: {
      status: outcome.nextAttemptAt === null ? 'failed' : 'pending',
      attempts: outcome.attempts,
      ...(outcome.nextAttemptAt === null ? {} : { nextAttemptAt: BigInt(outcome.nextAttemptAt) }),
      lastAttemptAt: BigInt(outcome.at),
      lastStatus: outcome.status,
      lastError: outcome.error?.slice(0, EXCERPT) ?? null,
      responseExcerpt: outcome.excerpt?.slice(0, EXCERPT) ?? null,
    },
  });
  await db.prisma.webhookEndpoint.updateMany({ where: { id: endpointId, failingSince: null }, data: { failingSince: BigInt(outcome.at) } });
  await db.prisma.webhookEndpoint.updateMany({ where: { id: endpointId }, data: { consecutiveFailures: { increment: 1 } } });
  const endpoint = await db.prisma.webhookEndpoint.findUnique({ where: { id: endpointId }, select: { consecutiveFailures: true, failingSince: true } });
  return endpoint ? { consecutiveFailures: endpoint.consecutiveFailures, failingSince: Number(endpoint.failingSince ?? outcome.at) } : undefined;
}

/** Disables an endpoint that keeps failing; false when it was disabled already (another instance did it first). */
export async function disableFailingEndpoint(db: Database, endpointId: string, at: Date): Promise<boolean> {
  const { count } = await db.prisma.webhookEndpoint.updateMany({
    where: { id: endpointId, enabled: true },
    data: { enabled: false, disabledReason: 'failing', disabledAt: at },
  });
  return count === 1;
}

/** "Send again": the delivery is pending anew with a fresh count of attempts, due at once. */
export async function resendDelivery(db: Database, id: string, now: number): Promise<boolean> {
  const { count } = await db.prisma.webhookDelivery.updateMany({
    where: { id, status: { in: ['delivered', 'failed'] } },
    data: { status: 'pending', attempts: 0, nextAttemptAt: BigInt(now) },
  });
  return count === 1;
}

/** Deletes delivered and failed rows older than `before` (the history kept), a batch at a time; returns how many. */
export async function pruneDeliveries(db: Database, before: number, batch = 5_000): Promise<number> {
  let deleted = 0;
  for (;;) {
    const rows = await db.prisma.webhookDelivery.findMany({
      where: { status: { in: ['delivered', 'failed'] }, createdAt: { lt: BigInt(before) } },
      select: { id: true },
      take: batch,
    });
    if (rows.length === 0) return deleted;
    deleted += (await db.prisma.webhookDelivery.deleteMany({ where: { id: { in: rows.map((row) => row.id) } } })).count;
    if (rows.length < batch) return deleted;
  }
}
