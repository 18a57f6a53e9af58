/**
 * TOTP (RFC 6238) as every authenticator app reads it: HMAC-SHA-1, 6 digits,
 * 30-second steps (RFC 6238 §4, §5.2; the otpauth:// URI format of Google
 * Authenticator's "Key Uri Format"). A code is accepted within one step either
 * side of the server's clock (RFC 6238 §5.2 recommends at most one step of
 * network delay) and only once: the repository remembers the last accepted
 * step and refuses any code of that step or an earlier one.
 */
import { Secret, TOTP } from 'otpauth';

export const TOTP_PERIOD = 30;
export const TOTP_DIGITS = 6;
const ALGORITHM = 'SHA1';
/** RFC 4226 §4 R6: a shared secret of at least 128 bits; 160 recommended. */
const SECRET_BYTES = 20;

/** A new shared secret, in base32 (what apps accept when the key is typed). */
export function newTotpSecret(): string {
  return new Secret({ size: SECRET_BYTES }).base32;
}

/** RFC 6238 §4.2's T: the number of whole steps since the epoch at `nowMs`. */
export function timeStep(nowMs: number): number {
  return TOTP.counter({ period: TOTP_PERIOD, timestamp: nowMs });
}

/** The step of `code` if it is right for a step within one of `nowMs`'s, else undefined. */
export function matchingStep(secret: string, code: string, nowMs: number): number | undefined {
  const delta = TOTP.validate({
    token: code,
    secret: Secret.fromBase32(secret),
    algorithm: ALGORITHM,
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD,
    timestamp: nowMs,
    window: 1,
  });
  return delta === null ? undefined : timeStep(nowMs) + delta;
}

/** The code for `nowMs` (tests, and nothing else: the server never shows a code). */
export function totpCode(secret: string, nowMs: number): string {
  return TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: ALGORITHM, digits: TOTP_DIGITS, period: TOTP_PERIOD, timestamp: nowMs });
}

/** The otpauth:// URI a QR code carries: the app shows "issuer (account)". */
export function otpauthUri(secret: string, issuer: string, accountName: string): string {
  return new TOTP({ issuer, label: accountName, secret: Secret.fromBase32(secret), algorithm: ALGORITHM, digits: TOTP_DIGITS, period: TOTP_PERIOD }).toString();
}

/** The key as a person types it: groups of four. */
export function groupedKey(secret: string): string {
  return secret.match(/.{1,4}/g)?.join(' ') ?? secret;
}

/** What is wrong with a typed TOTP code, as the forms say it. */
export const totpCodeProblems = {
  code_missing: 'enter the 6-digit code from your authenticator app',
  code_letters: 'the code is 6 digits, with no letters',
  code_length: 'the code is exactly 6 digits',
} as const;
export type TotpCodeProblem = keyof typeof totpCodeProblems;

/** A typed code: spaces are allowed (apps show "123 456"), then exactly six digits. */
export function readTotpCode(typed: string): { code: string } | { problem: TotpCodeProblem } {
  const code = typed.replace(/\s+/g, '');
  if (!code) return { problem: 'code_missing' };
  if (!/^\d+$/.test(code)) return { problem: 'code_letters' };
  return code.length === TOTP_DIGITS ? { code } : { problem: 'code_length' };
}
