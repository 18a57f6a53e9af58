/**
 * oidc-provider's back-channel logout (features.backchannelLogout), made durable: when a person signs out
 * at /oauth/logout the library calls each signed-in client's `backchannelLogout(sub, sid)`, which would
 * post the token there and then, once, and forget it when the client is down. Here that call queues the
 * logout in the database instead (lib/logout/queue.ts), and lib/logout/delivery.ts sends and retries it.
 * ID tokens carry `sid` for every client once the feature is on (the library adds it only with
 * backchannel_logout_session_required), so a relying party can tie a logout token to its session.
 */
import type Provider from 'oidc-provider';
import type { Database } from '../db/database.ts';
import { insertLogouts } from '../logout/queue.ts';

export function useQueuedBackchannelLogout(provider: Provider, db: Database, now: () => number): void {
  const prototype = provider.Client.prototype as unknown as {
    clientId: string;
    backchannelLogout(sub: string, sid: string | undefined): Promise<void>;
    includeSid(): boolean;
  };
  prototype.backchannelLogout = async function (this: { clientId: string }, sub, sid) {
    await insertLogouts(db, [{ clientId: this.clientId, accountId: sub, sid: sid ?? null }], now());
  };
  prototype.includeSid = () => true;
}
