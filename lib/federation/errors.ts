/**
 * Why a sign-in through a connection stopped, as the audit log records it and the pages word it
 * (interaction.errors.federation_<reason> and federation.error.<reason> in the catalogs):
 * - `access_denied`: the upstream (or the person there) refused (RFC 6749 §4.1.2.1);
 * - `upstream_error`: the upstream answered with another error, or refused the code;
 * - `unreachable`: discovery or the token request failed: no answer, a timeout, a 5xx;
 * - `state_invalid`: the callback's state is unknown, was used already (a replay), or belongs to another browser;
 * - `expired`: the Gatehouse sign-in it belongs to is over;
 * - `token_invalid`: the ID token failed a check (signature, algorithm, issuer, audience, expiry, nonce);
 * - `email_unverified`: an address that names an account here, which the upstream does not vouch for
 *   (or which is not verified here): neither linked nor taken over;
 * - `no_account`: nobody here has this identity and the connection creates no one;
 * - `account_disabled`: the identity's account is disabled;
 * - `connection_unavailable`: the connection is off, gone, or not offered to this application.
 */
export const federationFailureReasons = [
  'access_denied',
  'upstream_error',
  'unreachable',
  'state_invalid',
  'expired',
  'token_invalid',
  'email_unverified',
  'no_account',
  'account_disabled',
  'connection_unavailable',
] as const;

export type FederationFailureReason = (typeof federationFailureReasons)[number];

/** A step of the round trip refused for `reason`; the use cases turn it into an audit entry and a page. */
export class FederationFailure extends Error {
  readonly reason: FederationFailureReason;

  constructor(reason: FederationFailureReason, options?: { cause?: unknown }) {
    super(`federated sign-in failed: ${reason}`, options);
    this.reason = reason;
    this.name = 'FederationFailure';
  }
}

export const isFederationFailureReason = (value: unknown): value is FederationFailureReason =>
  typeof value === 'string' && (federationFailureReasons as readonly string[]).includes(value);
