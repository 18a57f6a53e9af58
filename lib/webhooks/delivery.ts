/**
 * Sends the webhook outbox (./outbox.ts), a step of the start-up on every instance. Each delivery is
 * signed per Standard Webhooks with its library (`webhook-id`, `webhook-timestamp`, `webhook-signature`:
 * HMAC-SHA256 over `id.timestamp.body` with the endpoint's `whsec_` secret), signed anew at each attempt
 * since receivers refuse timestamps older than a few minutes. A 2xx answer is delivery; anything else,
 * a redirect included (never followed: the endpoint is what the admin registered), or no answer within
 * REQUEST_TIMEOUT_MS is tried again after a wait that doubles from BASE_DELAY_MS up to MAX_DELAY_MS,
 * until `maxAttempts`. An endpoint failing `disableAfterFailures` times in a row, the first of them at
 * least `disableAfterMs` ago, is disabled, with an audit entry and a notice in the portal.
 */
import { Webhook } from 'standardwebhooks';
import { recordAudit } from '../audit/log.ts';
import type { Database } from '../db/database.ts';
import type { Log } from '../ops/log.ts';
import { requestFailure, startQueueWorker } from '../platform/queue-worker.ts';
import { claimDueDeliveries, disableFailingEndpoint, markAttemptFailed, markDelivered, pruneDeliveries, type ClaimedDelivery } from './outbox.ts';

/** The first retry's wait; each next one doubles it, up to MAX_DELAY_MS. */
export const BASE_DELAY_MS = 5_000;
export const MAX_DELAY_MS = 60 * 60_000;
/** A receiver that neither answers nor refuses within this is a failed attempt. */
const REQUEST_TIMEOUT_MS = 10_000;
/** What is kept of an answer's body: enough to read an error message, never a whole page. */
const EXCERPT_BYTES = 512;
const BATCH = 20;
const PRUNE_EVERY_MS = 60 * 60_000;

export interface WebhookDeliverySettings {
  maxAttempts: number;
  disableAfterFailures: number;
  disableAfterMs: number;
  /** Delivered and failed rows older than this go. */
  historyMs: number;
  /** How long one instance holds a row it is sending (WEBHOOK_LEASE_SECONDS): longer than a request may take. */
  leaseMs?: number;
  /** How often the outbox is looked at. */
  intervalMs?: number;
}

interface Deps {
  db: Database;
  now: () => number;
  log: Log;
}

/** The wait before attempt `attempts + 1`, after `attempts` failed ones. */
export const retryDelay = (attempts: number) => Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** Math.max(0, attempts - 1));

/** At most EXCERPT_BYTES of the body, read no further, as text. */
async function excerptOf(response: Response): Promise<string | null> {
  if (!response.body) return null;
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < EXCERPT_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  const text = Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString('utf8');
  return text || null;
}

/** One attempt: the answer's status and excerpt, or why none came. */
async function post(delivery: ClaimedDelivery, at: number): Promise<{ status: number | null; error: string | null; excerpt: string | null }> {
  const timestamp = new Date(at);
  const signature = new Webhook(delivery.secret).sign(delivery.id, timestamp, delivery.payload);
  try {
    const response = await fetch(delivery.url, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Gatehouse-Webhooks',
        'webhook-id': delivery.id,
        'webhook-timestamp': String(Math.floor(at / 1000)),
        'webhook-signature': signature,
      },
      body: delivery.payload,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const excerpt = await excerptOf(response).catch(() => null);
    const ok = response.status >= 200 && response.status < 300;
    return { status: response.status, error: ok ? null : `HTTP ${response.status}`, excerpt };
  } catch (error) {
    return { status: null, error: requestFailure(error), excerpt: null };
  }
}

async function deliver({ db, now }: Deps, settings: WebhookDeliverySettings, delivery: ClaimedDelivery): Promise<void> {
  const at = now();
  const attempts = delivery.attempts + 1;
  const answer = await post(delivery, at);
  if (!answer.error) {
    await markDelivered(db, delivery.id, delivery.endpointId, { attempts, at, ...answer });
    return;
  }
  const nextAttemptAt = attempts >= settings.maxAttempts ? null : at + retryDelay(attempts);
  const run = await markAttemptFailed(db, delivery.id, delivery.endpointId, { attempts, at, nextAttemptAt, ...answer });
  if (run && run.consecutiveFailures >= settings.disableAfterFailures && at - run.failingSince >= settings.disableAfterMs) {
    const endpoint = await db.prisma.webhookEndpoint.findUnique({ where: { id: delivery.endpointId }, select: { url: true } });
    if (await disableFailingEndpoint(db, delivery.endpointId, new Date(at))) {
      await recordAudit(db, {
        action: 'webhook.disabled',
        actor: null,
        target: { type: 'webhook', id: delivery.endpointId, label: endpoint?.url ?? null },
        details: { reason: 'failing', failures: run.consecutiveFailures, since: new Date(run.failingSince).toISOString(), error: answer.error },
      });
    }
  }
}

/** Delivers what is due once; resolves when every claimed row was tried, with how many were claimed. */
export async function deliverDueWebhooks(deps: Deps, settings: WebhookDeliverySettings): Promise<number> {
  const claimed = await claimDueDeliveries(deps.db, deps.now(), { limit: BATCH, leaseMs: settings.leaseMs ?? 60_000 });
  // One subject's rows come one at a time (the next is claimable once this one is done); others side by side.
  await Promise.all(
    claimed.map((delivery) =>
      deliver(deps, settings, delivery).catch((error: unknown) =>
        // The row keeps its claim and comes back when the lease ends.
        deps.log.error({ err: error, endpointId: delivery.endpointId, webhookId: delivery.id }, 'webhooks: the delivery failed'),
      ),
    ),
  );
  return claimed.length;
}

/** Looks at the outbox every `intervalMs` for the process's life, and prunes its history hourly; returns the stop. */
export function startWebhookDelivery(deps: Deps, settings: WebhookDeliverySettings): () => void {
  let prunedAt = 0;
  return startQueueWorker({
    name: 'webhooks',
    intervalMs: settings.intervalMs ?? 1_000,
    log: deps.log,
    drain: async () => {
      if (deps.now() - prunedAt >= PRUNE_EVERY_MS) {
        prunedAt = deps.now();
        await pruneDeliveries(deps.db, prunedAt - settings.historyMs);
      }
      // Anything claimed: its subject's next row may be claimable now; go on at once until nothing is.
      return (await deliverDueWebhooks(deps, settings)) > 0;
    },
  });
}
