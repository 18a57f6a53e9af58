/**
 * What one request at the registration endpoints (RFC 7591 §3, RFC 7592 §2) carries through the provider:
 * the initial access token it registers with and what the adapter stores for it. oidc-provider stores a
 * registered client through the adapter (`Client.upsert`), which is handed neither the request nor the token;
 * the extension in front of those routes (lib/oidc/registration.ts) runs the rest of the request inside this
 * scope, so the adapter finds them. Outside it (every other route), none is there.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { RequestContext } from '../platform/request-context.ts';
import type { InitialAccessTokenRecord } from './tokens.ts';

export interface RegistrationRequest {
  /** The initial access token the registration presented (found by the provider's `InitialAccessToken.find`). */
  initialAccessToken?: InitialAccessTokenRecord;
  /** Where the request came from, for the audit log. */
  context?: Partial<RequestContext>;
  /** A registration without an initial access token (DYNAMIC_REGISTRATION=open) waits for approval (DYNAMIC_REGISTRATION_OPEN_APPROVAL). */
  pendingWithoutToken?: boolean;
  /** The client the request stored, registered or updated: for the audit entry. */
  stored?: { clientId: string; created: boolean; pending: boolean };
}

const scope = new AsyncLocalStorage<RegistrationRequest>();

export function inRegistrationRequest<T>(request: RegistrationRequest, run: () => T): T {
  return scope.run(request, run);
}

export function registrationRequest(): RegistrationRequest | undefined {
  return scope.getStore();
}
