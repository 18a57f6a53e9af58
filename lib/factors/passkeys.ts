/**
 * Passkeys (WebAuthn Level 3) through @simplewebauthn/server: the two
 * ceremonies, registration (/account) and sign-in (/interaction/:uid), each
 * answered against a challenge kept on the server (lib/factors/webauthn-challenges.ts)
 * and taken by its first answer.
 *
 * The relying party is the configured issuer, never a request header: its
 * hostname is the RP ID, its origin the only origin an answer may come from.
 * Registration asks for a discoverable credential (residentKey required), so
 * every passkey can sign in on its own; signing in without a password requires
 * user verification (the authenticator's PIN or biometric), so the passkey
 * alone is two factors (something held, something known or been). As a second
 * step after the password, presence is enough.
 *
 * A response is read with zod before the library sees it: bounded sizes,
 * base64url only. Signature counters are checked by the library (a counter not
 * above the stored one is refused as a cloned authenticator) and written with a
 * conditional UPDATE (lib/factors/repository.ts recordPasskeyUse).
 */
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { COSEALG, isoBase64URL, isoUint8Array } from '@simplewebauthn/server/helpers';
import { isIP } from 'node:net';
import { z } from 'zod';
import type { Env } from '../config/env.ts';
import type { AppContext } from '../context.ts';
import { findPasskeyCredential, passkeyDescriptors, recordPasskeyUse, type NewPasskey } from './repository.ts';
import { saveRegistrationChallenge, saveSignInChallenge, takeRegistrationChallenge, takeSignInChallenge } from './webauthn-challenges.ts';

/** The issuer is the relying party. */
export type PasskeyContext = Pick<AppContext, 'db' | 'now'> & { config: Pick<Env, 'ISSUER'> };

/** How long the browser may take over a ceremony, and the challenge lives. */
const CEREMONY_MS = 5 * 60 * 1000;

/** The largest answer a form may carry (a credential ID is at most 1023 bytes; attestation objects with certificates run to a few kB). */
export const PASSKEY_RESPONSE_MAX_CHARS = 32 * 1024;

export const PASSKEY_NAME_MAX = 64;

function relyingParty(config: PasskeyContext['config']) {
  const issuer = new URL(config.ISSUER);
  return { id: issuer.hostname, origin: issuer.origin, name: 'Gatehouse' };
}

/** What the browser's answer must have signed: our challenge, for our origin and RP ID (WebAuthn §7.1, §7.2). */
function expectedOf(config: PasskeyContext['config'], challenge: { challenge: string }) {
  const rp = relyingParty(config);
  return { expectedChallenge: challenge.challenge, expectedOrigin: rp.origin, expectedRPID: rp.id };
}

/**
 * Whether passkeys can work under this issuer at all. The RP ID is the issuer's host, and
 * WebAuthn (§5.1.4.1, §5.1.3 step 8) wants a domain there: browsers refuse an IP address
 * with a SecurityError, which the page could only call "cancelled or timed out". Under an
 * IP-address issuer the pages offer no passkey, and the start-up log says why.
 */
export function passkeysUsable(config: PasskeyContext['config']): boolean {
  return isIP(new URL(config.ISSUER).hostname.replace(/^\[|\]$/g, '')) === 0;
}

/** The start-up log's line (a warning) when passkeys cannot work under ISSUER; nothing otherwise. */
export function passkeysStartupLine(config: PasskeyContext['config']): string | undefined {
  if (passkeysUsable(config)) return undefined;
  const host = new URL(config.ISSUER).hostname;
  return `ISSUER's host ${host} is an IP address, where browsers refuse passkeys (WebAuthn needs a domain name): passkeys are NOT offered; give ISSUER a host name to use them`;
}

/** The WebAuthn user handle of an account: its id's bytes (a random UUID, no personal data; WebAuthn §14.6.1). */
/**
 * The key types a passkey may have (COSE, RFC 9053), named here rather than left to
 * SimpleWebAuthn's default: on a runtime with post-quantum crypto (Node 24) that default puts
 * ML-DSA-44 first, whose 2,420-byte signatures a server on Node 22 could not verify, so a passkey's
 * usability would depend on the Node it was registered under. Ed25519, P-256 and RSA are what
 * every authenticator and both supported runtimes speak.
 */
export const PASSKEY_ALGORITHMS = [COSEALG.EdDSA, COSEALG.ES256, COSEALG.RS256];

export const userHandleOf = (accountId: string) => isoBase64URL.fromUTF8String(accountId);

const base64url = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[A-Za-z0-9_-]*$/, 'not base64url');
const TRANSPORTS = ['ble', 'hybrid', 'internal', 'nfc', 'usb'] as const;
const transports = z
  .array(z.string().max(16))
  .max(8)
  .transform((list) => list.filter((t): t is AuthenticatorTransport => (TRANSPORTS as readonly string[]).includes(t)));
const credentialFields = {
  id: base64url(1400).min(16),
  rawId: base64url(1400),
  type: z.literal('public-key'),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
};

const assertionSchema = z.object({
  ...credentialFields,
  response: z.object({
    clientDataJSON: base64url(4096).min(1),
    authenticatorData: base64url(4096).min(1),
    signature: base64url(2048).min(1),
    userHandle: base64url(256).optional(),
  }),
});

const attestationSchema = z.object({
  ...credentialFields,
  response: z.object({
    clientDataJSON: base64url(4096).min(1),
    attestationObject: base64url(24 * 1024).min(1),
    transports: transports.optional(),
    authenticatorData: base64url(4096).optional(),
    publicKey: base64url(4096).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
  }),
});

function readJson<T>(schema: z.ZodType<T>, text: string): T | undefined {
  if (!text || text.length > PASSKEY_RESPONSE_MAX_CHARS) return undefined;
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** What went wrong with a passkey's answer, as the page says it. */
export type PasskeyProblem =
  /** No challenge waits (expired, already answered, or the page moved on): start again. */
  | 'passkey_expired'
  /** Not a WebAuthn response at all. */
  | 'passkey_invalid'
  /** A credential no account has (removed, or registered elsewhere). */
  | 'passkey_unknown'
  /** Another account's passkey at a second step. */
  | 'passkey_other_account'
  /** The signature, challenge, origin, user verification or counter did not check out. */
  | 'passkey_failed';

// ---------------------------------------------------------------------------
// Sign-in

/**
 * The options the sign-in page hands the browser for interaction `uid`, its
 * challenge saved until `expiresAt` at most. With `accountId`, a second step:
 * only that account's passkeys, presence enough. Without, passwordless: any
 * discoverable passkey, user verification required. Undefined where passkeys
 * cannot work (passkeysUsable): the page then offers none.
 */
export async function signInOptions(
  ctx: PasskeyContext,
  uid: string,
  expiresAt: number,
  accountId?: string,
): Promise<PublicKeyCredentialRequestOptionsJSON | undefined> {
  if (!passkeysUsable(ctx.config)) return undefined;
  const allowCredentials = accountId ? await passkeyDescriptors(ctx.db, accountId) : [];
  const options = await generateAuthenticationOptions({
    rpID: relyingParty(ctx.config).id,
    allowCredentials: allowCredentials.map((c) => ({ id: c.id, transports: c.transports as AuthenticatorTransport[] })),
    userVerification: accountId ? 'preferred' : 'required',
    timeout: CEREMONY_MS,
  });
  await saveSignInChallenge(ctx.db, uid, { challenge: options.challenge, accountId }, Math.min(expiresAt, ctx.now() + CEREMONY_MS));
  return options;
}

export type PasskeySignIn =
  | { status: 'verified'; accountId: string }
  /** `accountId`: whose passkey it was, when the credential is known. */
  | { status: 'refused'; problem: PasskeyProblem; accountId?: string };

/**
 * Checks the browser's answer to interaction `uid`'s challenge. `secondStepOf`:
 * the account whose second step this is (its passkey must answer), or
 * undefined for a passwordless sign-in. The challenge is used up whatever the
 * outcome.
 */
export async function checkSignIn(ctx: PasskeyContext, uid: string, responseText: string, secondStepOf?: string): Promise<PasskeySignIn> {
  const challenge = await takeSignInChallenge(ctx.db, uid, ctx.now());
  if (!challenge || challenge.accountId !== secondStepOf) return { status: 'refused', problem: 'passkey_expired' };
  const response = readJson<AuthenticationResponseJSON>(assertionSchema, responseText);
  if (!response) return { status: 'refused', problem: 'passkey_invalid' };
  const credential = await findPasskeyCredential(ctx.db, response.id);
  if (!credential) return { status: 'refused', problem: 'passkey_unknown' };
  const accountId = credential.userId;
  if (secondStepOf && accountId !== secondStepOf) return { status: 'refused', problem: 'passkey_other_account' };
  // A discoverable credential names its account: it must be the one the credential was registered to.
  if (response.response.userHandle !== undefined && response.response.userHandle !== userHandleOf(accountId)) {
    return { status: 'refused', problem: 'passkey_failed', accountId };
  }
  let newCounter: number;
  try {
    const verification = await verifyAuthenticationResponse({
      response,
      ...expectedOf(ctx.config, challenge),
      credential: {
        id: credential.id,
        publicKey: isoBase64URL.toBuffer(credential.publicKey),
        counter: credential.counter,
        transports: credential.transports as AuthenticatorTransport[],
      },
      requireUserVerification: !secondStepOf,
    });
    if (!verification.verified) return { status: 'refused', problem: 'passkey_failed', accountId };
    newCounter = verification.authenticationInfo.newCounter;
  } catch {
    // The library throws for every check that fails (challenge, origin, RP ID hash, flags, signature, counter).
    return { status: 'refused', problem: 'passkey_failed', accountId };
  }
  const recorded = await recordPasskeyUse(ctx.db, credential.id, { before: credential.counter, after: newCounter }, new Date(ctx.now()));
  return recorded ? { status: 'verified', accountId } : { status: 'refused', problem: 'passkey_failed', accountId };
}

// ---------------------------------------------------------------------------
// Registration

interface Holder {
  id: string;
  username: string;
}

/** The options /account hands the browser to create a passkey named `name`; its challenge saved for the answer. */
export async function registrationOptions(ctx: PasskeyContext, holder: Holder, name: string): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const rp = relyingParty(ctx.config);
  const existing = await passkeyDescriptors(ctx.db, holder.id);
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: holder.username,
    userDisplayName: holder.username,
    userID: isoUint8Array.fromUTF8String(holder.id),
    attestationType: 'none',
    // The same authenticator twice is refused by the browser before anything is created.
    excludeCredentials: existing.map((c) => ({ id: c.id, transports: c.transports as AuthenticatorTransport[] })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
    supportedAlgorithmIDs: PASSKEY_ALGORITHMS,
    timeout: CEREMONY_MS,
  });
  await saveRegistrationChallenge(ctx.db, holder.id, { challenge: options.challenge, name }, ctx.now() + CEREMONY_MS);
  return options;
}

export type PasskeyRegistration = { status: 'verified'; passkey: NewPasskey } | { status: 'refused'; problem: PasskeyProblem };

/** Checks the browser's answer to the holder's registration challenge (used up whatever the outcome); the passkey to store. */
export async function checkRegistration(ctx: PasskeyContext, holder: Holder, responseText: string): Promise<PasskeyRegistration> {
  const challenge = await takeRegistrationChallenge(ctx.db, holder.id, ctx.now());
  if (!challenge) return { status: 'refused', problem: 'passkey_expired' };
  const response = readJson<RegistrationResponseJSON>(attestationSchema, responseText);
  if (!response) return { status: 'refused', problem: 'passkey_invalid' };
  try {
    const verification = await verifyRegistrationResponse({
      response,
      ...expectedOf(ctx.config, challenge),
      requireUserVerification: false,
    });
    if (!verification.verified) return { status: 'refused', problem: 'passkey_failed' };
    const { credential, credentialDeviceType, credentialBackedUp } = verification.registrationInfo;
    return {
      status: 'verified',
      passkey: {
        id: credential.id,
        userId: holder.id,
        name: challenge.name,
        publicKey: isoBase64URL.fromBuffer(credential.publicKey),
        counter: credential.counter,
        transports: response.response.transports ?? [],
        deviceType: credentialDeviceType,
        backedUp: credentialBackedUp,
      },
    };
  } catch {
    return { status: 'refused', problem: 'passkey_failed' };
  }
}
