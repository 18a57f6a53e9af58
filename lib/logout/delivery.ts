/**
 * Sends the queued logout tokens (OpenID Connect Back-Channel Logout 1.0 §2.5): each a JWT signed
 * like the client's ID tokens, with `typ: logout+jwt` (§2.4), posted as `logout_token` to its
 * backchannel_logout_uri; a 200 (or 204) answer is delivery (§2.8). Anything else, or no answer within
 * seconds, is tried again after a wait that doubles from BASE_DELAY_MS, up to the configured number of
 * attempts. The token is signed anew at each attempt: the library gives it two minutes of life, a
 * retry may come an hour later.
 */
import { randomUUID } from 'node:crypto';
import type Provider from 'oidc-provider';
import { recordAudit } from '../audit/log.ts';
import type { Database } from '../db/database.ts';
import type { Log } from '../ops/log.ts';
import { requestFailure, startQueueWorker } from '../platform/queue-worker.ts';
import { claimDueLogouts, removeLogout, retryLogoutLater, type QueuedLogout } from './queue.ts';

/** The first retry's wait; each next one doubles it. */
export const BASE_DELAY_MS = 5_000;
/** How long one instance holds a row it is sending: longer than a request may take. */
const LEASE_MS = 60_000;
/** A receiver that neither answers nor refuses within this is a failed attempt. */
const REQUEST_TIMEOUT_MS = 10_000;
const BATCH = 20;

export interface DeliverySettings {
  maxAttempts: number;
  /** How often the queue is looked at. */
  intervalMs?: number;
}

interface Deps {
  db: Database;
  provider: () => Promise<Provider>;
  now: () => number;
  log: Log;
}

const EVENT = 'http://schemas.openid.net/event/backchannel-logout';

/** The wait before attempt `attempts + 1`, after `attempts` failed ones. */
export const retryDelay = (attempts: number) => BASE_DELAY_MS * 2 ** Math.max(0, attempts - 1);

type LogoutClient = InstanceType<Provider['Client']> & { backchannelLogoutUri?: string; clientName?: string };

/** A logout token for `logout`, signed by the provider with the client's ID token algorithm (§2.4). */
async function logoutToken(provider: Provider, client: LogoutClient, logout: QueuedLogout): Promise<string> {
  const IdToken = provider.IdToken as unknown as new (
    claims: object,
    options: { client: unknown; ctx: undefined },
  ) => { mask: object; set(key: string, value: unknown): void; issue(options: { use: 'logout' }): Promise<string> };
  const token = new IdToken({ sub: logout.accountId }, { client, ctx: undefined });
  // sub always (§2.4 asks for sub, sid or both); sid whenever the session had one for this client.
  token.mask = { sub: null };
  token.set('events', { [EVENT]: {} });
  token.set('jti', randomUUID());
  if (logout.sid) token.set('sid', logout.sid);
  return token.issue({ use: 'logout' });
}

/** One attempt: undefined when the client took it, otherwise why not (a status or a network failure, never the token). */
async function post(uri: string, token: string): Promise<string | undefined> {
  try {
    const response = await fetch(uri, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ logout_token: token }),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    await response.body?.cancel();
    return response.status === 200 || response.status === 204 ? undefined : `HTTP ${response.status}`;
  } catch (error) {
    return requestFailure(error);
  }
}

async function deliver({ db, provider, now }: Deps, settings: DeliverySettings, logout: QueuedLogout): Promise<void> {
  const current = await provider();
  // Disabled or deleted meanwhile, or its URI removed: the provider no longer knows where to send.
  const client = (await current.Client.find(logout.clientId)) as LogoutClient | undefined;
  const target = { type: 'client' as const, id: logout.clientId, label: client?.clientName ?? logout.clientId };
  const who = { accountId: logout.accountId, ...(logout.sid ? { sid: logout.sid } : {}) };
  if (!client?.backchannelLogoutUri) {
    await removeLogout(db, logout.id);
    await recordAudit(db, {
      action: 'backchannel_logout.abandoned',
      actor: null,
      target,
      details: { ...who, attempts: logout.attempts, reason: 'client_gone' },
    });
    return;
  }
  const attempts = logout.attempts + 1;
  const error = await post(client.backchannelLogoutUri, await logoutToken(current, client, logout));
  if (!error) {
    await removeLogout(db, logout.id);
    await recordAudit(db, { action: 'backchannel_logout.delivered', actor: null, target, details: { ...who, attempts } });
  } else if (attempts >= settings.maxAttempts) {
    await removeLogout(db, logout.id);
    await recordAudit(db, {
      action: 'backchannel_logout.abandoned',
      actor: null,
      target,
      details: { ...who, attempts, reason: 'attempts_exhausted', error },
    });
  } else {
    await retryLogoutLater(db, logout.id, { attempts, nextAttemptAt: now() + retryDelay(attempts), error });
  }
}

/** Delivers what is due once; resolves when every claimed row was tried. */
export async function deliverDueLogouts(deps: Deps, settings: DeliverySettings): Promise<number> {
  const claimed = await claimDueLogouts(deps.db, deps.now(), { limit: BATCH, leaseMs: LEASE_MS });
  await Promise.all(
    claimed.map((logout) =>
      deliver(deps, settings, logout).catch((error: unknown) =>
        // The row keeps its claim and comes back when the lease ends.
        deps.log.error({ err: error, clientId: logout.clientId }, 'back-channel logout: the delivery failed'),
      ),
    ),
  );
  return claimed.length;
}

/** Looks at the queue every `intervalMs` for the process's life; returns the stop. */
export function startLogoutDelivery(deps: Deps, settings: DeliverySettings): () => void {
  return startQueueWorker({
    name: 'back-channel logout',
    intervalMs: settings.intervalMs ?? 1_000,
    log: deps.log,
    // A full batch: more may be due; go on at once.
    drain: async () => (await deliverDueLogouts(deps, settings)) === BATCH,
  });
}
