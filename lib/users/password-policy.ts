/**
 * The policy for a password a person chooses (sign-up, password reset, an
 * invitation, /account), after NIST SP 800-63B §5.1.1.2: a minimum length the
 * operator sets (PASSWORD_MIN_LENGTH, 8 at least), the usual maximum, and no
 * password from a list of commonly used ones; no rules about which kinds of
 * characters it must hold. The list is zxcvbn-ts's `passwords-common` (about
 * 49,000 passwords from breach corpora), the same the form's strength guidance
 * uses in the browser, so the browser's "very common" and the server's refusal
 * agree. Compared without case: "Password1" is as guessable as "password1".
 */
import { dictionary } from '@zxcvbn-ts/language-common';
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import { passwordPolicy } from '../platform/passwords.ts';

/** Optional: a context without it (a unit test's) has the floor, 8. */
export type PasswordPolicySettings = Partial<Pick<AppContext['config'], 'PASSWORD_MIN_LENGTH'>>;

/** The fewest characters a chosen password may have under `config`. */
export const minimumPasswordLength = (config: PasswordPolicySettings | undefined) => config?.PASSWORD_MIN_LENGTH ?? passwordPolicy.minLength;

// Built on first use: a sign-in never needs it.
let common: Set<string> | undefined;

/** Whether `password` is on the list of common passwords, without case. */
export function isCommonPassword(password: string): boolean {
  common ??= new Set(dictionary['passwords-common'].map((p) => p.toLowerCase()));
  return common.has(password.toLowerCase());
}

/**
 * A chosen password under the operator's policy. A password too short is only
 * said to be too short (most common ones are): one problem a person can act on.
 */
export function chosenPasswordSchema(minLength: number) {
  return z
    .string()
    .min(minLength, `Password must be at least ${minLength} characters`)
    .max(passwordPolicy.maxLength, `Password is at most ${passwordPolicy.maxLength} characters`)
    .refine((p) => p.length < minLength || !isCommonPassword(p), {
      message: 'this password is one of the most commonly used: choose another',
      params: { code: 'common_password' },
    });
}
