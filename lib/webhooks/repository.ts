/**
 * The webhook endpoints' storage and the read side of their deliveries: plain objects, never the signing
 * secret (sealed at rest, opened only to sign, lib/webhooks/outbox.ts).
 */
import type { WebhookDelivery, WebhookEndpoint } from '../generated/sqlite/client.ts';
import type { Database } from '../db/database.ts';
import { endpointSecretContext, type DeliveryStatus } from './outbox.ts';
import type { WebhookEventType } from './events.ts';

export interface WebhookEndpointRecord {
  id: string;
  url: string;
  description: string;
  events: WebhookEventType[];
  enabled: boolean;
  /** `failing`: Gatehouse disabled it after failures in a row; null otherwise. */
  disabledReason: 'failing' | null;
  disabledAt: Date | null;
  consecutiveFailures: number;
  failingSince: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface WebhookDeliveryRecord {
  id: string;
  endpointId: string;
  type: WebhookEventType;
  subject: string;
  status: DeliveryStatus;
  attempts: number;
  createdAt: Date;
  lastAttemptAt: Date | null;
  /** When the next attempt is due; null unless pending. */
  nextAttemptAt: Date | null;
  lastStatus: number | null;
  lastError: string | null;
  responseExcerpt: string | null;
  /** The body as sent: `{type, timestamp, data}`. */
  payload: Record<string, unknown>;
}

const toEndpoint = (row: WebhookEndpoint): WebhookEndpointRecord => ({
  id: row.id,
  url: row.url,
  description: row.description,
  events: row.events.split(' ').filter(Boolean) as WebhookEventType[],
  enabled: row.enabled,
  disabledReason: row.disabledReason === 'failing' ? 'failing' : null,
  disabledAt: row.disabledAt,
  consecutiveFailures: row.consecutiveFailures,
  failingSince: row.failingSince === null ? null : new Date(Number(row.failingSince)),
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

const toDelivery = (row: WebhookDelivery): WebhookDeliveryRecord => ({
  id: row.id,
  endpointId: row.endpointId,
  type: row.type as WebhookEventType,
  subject: row.subject,
  status: row.status as DeliveryStatus,
  attempts: row.attempts,
  createdAt: new Date(Number(row.createdAt)),
  lastAttemptAt: row.lastAttemptAt === null ? null : new Date(Number(row.lastAttemptAt)),
  nextAttemptAt: row.status === 'pending' ? new Date(Number(row.nextAttemptAt)) : null,
  lastStatus: row.lastStatus,
  lastError: row.lastError,
  responseExcerpt: row.responseExcerpt,
  payload: JSON.parse(row.payload) as Record<string, unknown>,
});

export interface EndpointWrite {
  url: string;
  description: string;
  events: WebhookEventType[];
  enabled: boolean;
}

export async function insertEndpoint(db: Database, id: string, data: EndpointWrite, secret: string): Promise<WebhookEndpointRecord> {
  const row = await db.prisma.webhookEndpoint.create({
    data: {
      id,
      url: data.url,
      description: data.description,
      events: data.events.join(' '),
      enabled: data.enabled,
      secret: db.keyring.seal(secret, endpointSecretContext(id)),
    },
  });
  return toEndpoint(row);
}

/** Changes what is given; enabling clears the run of failures and the reason it was disabled. */
export async function updateEndpoint(db: Database, id: string, data: Partial<EndpointWrite>): Promise<WebhookEndpointRecord> {
  const row = await db.prisma.webhookEndpoint.update({
    where: { id },
    data: {
      ...(data.url === undefined ? {} : { url: data.url }),
      ...(data.description === undefined ? {} : { description: data.description }),
      ...(data.events === undefined ? {} : { events: data.events.join(' ') }),
      ...(data.enabled === undefined ? {} : { enabled: data.enabled }),
      ...(data.enabled === true ? { consecutiveFailures: 0, failingSince: null, disabledReason: null, disabledAt: null } : {}),
    },
  });
  return toEndpoint(row);
}

export async function deleteEndpoint(db: Database, id: string): Promise<void> {
  await db.prisma.webhookEndpoint.deleteMany({ where: { id } });
}

export async function findEndpoint(db: Database, id: string): Promise<WebhookEndpointRecord | undefined> {
  const row = await db.prisma.webhookEndpoint.findUnique({ where: { id } });
  return row ? toEndpoint(row) : undefined;
}

export async function listEndpoints(db: Database): Promise<WebhookEndpointRecord[]> {
  return (await db.prisma.webhookEndpoint.findMany({ orderBy: { createdAt: 'asc' } })).map(toEndpoint);
}

/** An endpoint's deliveries, newest first, optionally of one status. */
export async function listDeliveries(
  db: Database,
  endpointId: string,
  { status, skip, take }: { status?: DeliveryStatus; skip: number; take: number },
): Promise<{ deliveries: WebhookDeliveryRecord[]; total: number }> {
  const where = { endpointId, ...(status ? { status } : {}) };
  const [rows, total] = await Promise.all([
    db.prisma.webhookDelivery.findMany({ where, orderBy: { id: 'desc' }, skip, take }),
    db.prisma.webhookDelivery.count({ where }),
  ]);
  return { deliveries: rows.map(toDelivery), total };
}

export async function findDelivery(db: Database, id: string): Promise<WebhookDeliveryRecord | undefined> {
  const row = await db.prisma.webhookDelivery.findUnique({ where: { id } });
  return row ? toDelivery(row) : undefined;
}
