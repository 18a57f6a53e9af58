/**
 * Who must have a second factor (SECOND_FACTOR_REQUIRED): `admins` (the
 * default: the portal is the keys to everything), `everyone`, or `off`.
 * Enforced in two places, both through this function: the portal sends such a
 * person to /account/security before anything else (lib/surfaces/portal/access.ts),
 * and signing in to any other app waits until they have set one up there
 * (lib/sign-in/interactions.ts): the portal is where it is set up, so its
 * own sign-in is never held back.
 */
import { isAdminRole, type Role } from '../admin-roles/roles.ts';

export type SecondFactorPolicy = 'admins' | 'everyone' | 'off';

/** Whether a person of `role` must have a second factor under `policy`. */
export function secondFactorRequiredFor(policy: SecondFactorPolicy, role: Role): boolean {
  return policy === 'everyone' || (policy === 'admins' && isAdminRole(role));
}

/** Where a person the policy stops is sent: the enrolment page, saying why. */
export const enrolmentPath = (policy: SecondFactorPolicy) => `/account/security?required=${policy === 'everyone' ? 'everyone' : 'admin'}`;
