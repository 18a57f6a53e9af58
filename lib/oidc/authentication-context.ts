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
 * The acr values are ours (OIDC Core §2 allows absolute URIs): discovery lists
 * them as `acr_values_supported`.
 */
export const ACR = {
  password: 'urn:gatehouse:acr:password',
  mfa: 'urn:gatehouse:acr:mfa',
} as const;

export const ACR_VALUES = [ACR.password, ACR.mfa];

export const AMR = {
  password: ['pwd'],
  totp: ['pwd', 'otp', 'mfa'],
  recovery_code: ['pwd', 'mfa'],
  passkey: ['pwd', 'pop', 'mfa'],
  passwordless: ['pop', 'mfa'],
} as const satisfies Record<string, readonly string[]>;

/** The provider's `login` result for a sign-in with these steps: a password and maybe a second step, or a passkey alone. */
export function loginResult(accountId: string, steps?: 'totp' | 'recovery_code' | 'passkey' | 'passwordless') {
  return steps ? { accountId, acr: ACR.mfa, amr: [...AMR[steps]] } : { accountId, acr: ACR.password, amr: [...AMR.password] };
}
