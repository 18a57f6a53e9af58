/**
 * A software WebAuthn authenticator for tests (unit and protocol): it answers
 * the options Gatehouse hands out exactly as a browser with a platform
 * authenticator would, with an ES256 key per credential, `none` attestation
 * and discoverable credentials. It signs what it is given, so a test can also
 * make it answer the wrong challenge, for the wrong origin, or for someone
 * else. Chromium's own virtual authenticator covers the browser tests
 * (e2e/browser/passkeys.spec.ts); this one covers what a browser never sends.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { encodeCBOR, type CBORType } from '@levischuck/tiny-cbor';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';

const b64u = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_BE = 0x08;
const FLAG_BS = 0x10;
const FLAG_AT = 0x40;

export interface SoftCredential {
  id: string;
  rpId: string;
  /** base64url, as the options carried it. */
  userHandle: string;
  key: KeyObject;
  counter: number;
}

export interface SoftAuthenticatorOptions {
  /** Whether it verifies its user (PIN or biometric): sets the UV flag. */
  userVerification?: boolean;
  /** Whether it keeps a signature counter (synced passkeys do not: always 0). */
  counts?: boolean;
}

export class SoftAuthenticator {
  readonly credentials: SoftCredential[] = [];
  userVerification: boolean;
  readonly counts: boolean;

  constructor({ userVerification = true, counts = true }: SoftAuthenticatorOptions = {}) {
    this.userVerification = userVerification;
    this.counts = counts;
  }

  private flags(extra: number): number {
    return FLAG_UP | (this.userVerification ? FLAG_UV : 0) | (this.counts ? 0 : FLAG_BE | FLAG_BS) | extra;
  }

  /** navigator.credentials.create() on `origin` for these options. */
  create(options: PublicKeyCredentialCreationOptionsJSON, origin: string): RegistrationResponseJSON {
    const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const id = randomBytes(32);
    const rpId = options.rp.id ?? new URL(origin).hostname;
    // COSE_Key (RFC 9053): kty EC2 (2), alg ES256 (-7), crv P-256 (1), x, y.
    const coseKey = encodeCBOR(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x as string, 'base64url')],
        [-3, Buffer.from(jwk.y as string, 'base64url')],
      ]),
    );
    const counter = 0;
    const credentialIdLength = Buffer.alloc(2);
    credentialIdLength.writeUInt16BE(id.length);
    const authData = Buffer.concat([
      sha256(rpId),
      Buffer.from([this.flags(FLAG_AT)]),
      uint32(counter),
      Buffer.alloc(16),
      credentialIdLength,
      id,
      Buffer.from(coseKey),
    ]);
    const attestationObject = encodeCBOR(
      new Map<string, CBORType>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, CBORType>()],
        ['authData', authData],
      ]),
    );
    const clientDataJSON = JSON.stringify({ type: 'webauthn.create', challenge: options.challenge, origin, crossOrigin: false });
    this.credentials.push({ id: b64u(id), rpId, userHandle: options.user.id, key: privateKey, counter });
    return {
      id: b64u(id),
      rawId: b64u(id),
      type: 'public-key',
      response: { clientDataJSON: b64u(Buffer.from(clientDataJSON)), attestationObject: b64u(attestationObject), transports: ['internal'] },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /**
   * navigator.credentials.get() on `origin`: the first of its credentials the
   * options allow (any of the RP's when they list none), or `credential`.
   */
  get(options: PublicKeyCredentialRequestOptionsJSON, origin: string, credential?: SoftCredential): AuthenticationResponseJSON {
    const rpId = options.rpId ?? new URL(origin).hostname;
    const allowed = options.allowCredentials?.map((c) => c.id) ?? [];
    const chosen = credential ?? this.credentials.find((c) => c.rpId === rpId && (allowed.length === 0 || allowed.includes(c.id)));
    if (!chosen) throw new Error('NotAllowedError: no credential for these options');
    if (this.counts) chosen.counter += 1;
    const authData = Buffer.concat([sha256(rpId), Buffer.from([this.flags(0)]), uint32(this.counts ? chosen.counter : 0)]);
    const clientDataJSON = Buffer.from(JSON.stringify({ type: 'webauthn.get', challenge: options.challenge, origin, crossOrigin: false }));
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), chosen.key);
    return {
      id: chosen.id,
      rawId: chosen.id,
      type: 'public-key',
      response: { clientDataJSON: b64u(clientDataJSON), authenticatorData: b64u(authData), signature: b64u(signature), userHandle: chosen.userHandle },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }
}

function uint32(n: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(n);
  return bytes;
}
