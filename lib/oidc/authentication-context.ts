/**
 * How a sign-in is described in ID tokens: `acr` (OIDC Core §2, the
 * Authentication Context Class Reference) and `amr` (RFC 8176 values).
 *
 * - Password only: acr `urn:gatehouse:acr:password`, amr `["pwd"]`.
 * - Password and TOTP: acr `urn:gatehouse:acr:mfa`, amr `["pwd", "otp", "mfa"]`
 *   (RFC 8176 §2: `otp` names RFC 6238 codes; `mfa` that more than one factor was used).
 * - Password and a recovery code: acr `urn:gatehouse:acr:mfa`, amr `["pwd", "mfa"]`.
 *   A recovery code is a pre-issued look-up secret, not an RFC 4226/6238
 *   generator, and RFC 8176 registers no value for it: claiming `otp` would
 *   tell a client an authenticator app was used when it was not. It is still
 *   a second factor (something held), hence `mfa`.
 *
 * - Password and a passkey: acr `urn:gatehouse:acr:mfa`, amr `["pwd", "pop", "mfa"]`.
 * - A passkey alone (passwordless, user verification required): acr
 *   `urn:gatehouse:acr:mfa`, amr `["pop", "mfa"]`. RFC 8176's `pop` is proof of
 *   possession of a key without saying whether it is in hardware (`hwk`) or
 *   software (`swk`), and a synced passkey may be either. The authenticator's
 *   user verification (a PIN or biometric) is the second factor, which makes
 *   it a multi-factor cryptographic authenticator (NIST SP 800-63B §5.1.9).
 *
 * - A code mailed to the account's verified address (EMAIL_SIGN_IN_CODES=on, lib/sign-in/email-codes.ts):
 *   acr `urn:gatehouse:acr:email-code`, amr `["otp"]`. The code is a one-time password (RFC 8176 §2 `otp`;
 *   its list of OTP specifications, RFC 4226 and 6238, says "include", not "are"), and the factor it
 *   proves is the mailbox: something held, one factor. No `pwd`: no password was typed. Followed by a
 *   second step (the account has one, or the policy or the client asks for it: lib/oidc/step-up.ts), the
 *   code takes the password's place: `["otp", "mfa"]` with TOTP or a recovery code, `["otp", "pop", "mfa"]`
 *   with a passkey, acr `mfa`. Its own acr, not `password`'s: a client that relies on "a password was
 *   typed" must not be told so; it is listed in discovery only while the setting is on.
 *
 * - Signed in at an upstream identity provider (lib/federation): amr `["fed"]` (RFC 8176 §2, federated
 *   authentication), acr `urn:gatehouse:acr:federated`; followed by Gatehouse's own second step, the
 *   upstream sign-in takes the password's place (`["fed", "otp", "mfa"]`, acr `mfa`). A connection trusted
 *   for multi-factor passes `mfa` on only when the upstream's own `amr` says so. The federated acr is not
 *   listed in discovery: with no connection nothing there changes, and clients ask for `mfa`, not for it.
 *
 * The acr values are ours (OIDC Core §2 allows absolute URIs): discovery lists
 * them as `acr_values_supported`.
 */
export const ACR = {
  password: 'urn:gatehouse:acr:password',
  mfa: 'urn:gatehouse:acr:mfa',
  email_code: 'urn:gatehouse:acr:email-code',
  federated: 'urn:gatehouse:acr:federated',
} as const;

export const ACR_VALUES = [ACR.password, ACR.mfa];

/** What discovery lists: the email code's acr only while EMAIL_SIGN_IN_CODES is on. */
export const acrValuesFor = (emailSignInCodes: boolean) => (emailSignInCodes ? [...ACR_VALUES, ACR.email_code] : ACR_VALUES);

/** What the first step of a sign-in was: a password, or a code mailed to the account (lib/sign-in/email-codes.ts). */
export type FirstFactor = 'pwd' | 'email_code' | 'fed';

export const AMR = {
  password: ['pwd'],
  totp: ['pwd', 'otp', 'mfa'],
  recovery_code: ['pwd', 'mfa'],
  passkey: ['pwd', 'pop', 'mfa'],
  passwordless: ['pop', 'mfa'],
} as const satisfies Record<string, readonly string[]>;

/**
 * The provider's `login` result for a sign-in with these steps: a first factor (a password, or an email
 * code) and maybe a second step, or a passkey alone.
 */
export function loginResult(accountId: string, steps?: 'totp' | 'recovery_code' | 'passkey' | 'passwordless', first: FirstFactor = 'pwd') {
  if (first === 'email_code' && steps !== 'passwordless') {
    // The code stands where the password stood; `otp` once even with TOTP after it.
    const amr = steps ? [...new Set(['otp', ...AMR[steps].filter((value) => value !== 'pwd')])] : ['otp'];
    return { accountId, acr: steps ? ACR.mfa : ACR.email_code, amr };
  }
  if (first === 'fed' && steps !== 'passwordless') {
    const amr = steps ? ['fed', ...AMR[steps].filter((value) => value !== 'pwd')] : ['fed'];
    return { accountId, acr: steps ? ACR.mfa : ACR.federated, amr };
  }
  return steps ? { accountId, acr: ACR.mfa, amr: [...AMR[steps]] } : { accountId, acr: ACR.password, amr: [...AMR.password] };
}
