/**
 * The throttle's refusals and lockouts as metrics (lib/ops/metrics.ts): a
 * throttle whose checks report what they refused, by check and reason, and
 * whose failures report the locks they set. Wrapped around the throttle where
 * the context builds it (lib/context.ts), so each surface that answers a
 * refusal (the sign-in page, the token endpoint, the mailed links) is counted
 * without counting it itself, and lib/platform/throttle.ts stays about policy.
 */
import type { Check, FailureOutcome, Throttle } from '../platform/throttle.ts';
import type { LockoutKind, Metrics, ThrottleKind } from './metrics.ts';

export function countedThrottle(throttle: Throttle, metrics: Pick<Metrics, 'throttleRefused' | 'lockout'>): Throttle {
  const checked =
    <A extends unknown[]>(kind: ThrottleKind, check: (...args: A) => Promise<Check>) =>
    async (...args: A): Promise<Check> => {
      const result = await check(...args);
      if (!result.allowed) metrics.throttleRefused(kind, result.reason);
      return result;
    };
  const failed =
    <A extends unknown[]>(kind: LockoutKind, failure: (...args: A) => Promise<FailureOutcome>) =>
    async (...args: A): Promise<FailureOutcome> => {
      const outcome = await failure(...args);
      if (outcome.locked) metrics.lockout(kind);
      return outcome;
    };
  return {
    ...throttle,
    beforePasswordCheck: checked('password', throttle.beforePasswordCheck),
    beforeSecondFactor: checked('second_factor', throttle.beforeSecondFactor),
    clientAuthenticationFailed: checked('client', throttle.clientAuthenticationFailed),
    beforeMailRequest: checked('mail', throttle.beforeMailRequest),
    beforeSignUp: checked('sign_up', throttle.beforeSignUp),
    beforeOpenRegistration: checked('open_registration', throttle.beforeOpenRegistration),
    beforeLinkCheck: checked('link', throttle.beforeLinkCheck),
    passwordFailed: failed('password', throttle.passwordFailed),
    secondFactorFailed: failed('second_factor', throttle.secondFactorFailed),
  };
}
