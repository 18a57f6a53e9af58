/**
 * The protocol features an operator turns on for the instance (lib/config/env.ts: DEVICE_FLOW,
 * PUSHED_AUTHORIZATION_REQUESTS, REQUEST_OBJECTS, DPOP, PAIRWISE_SUBJECTS, CLAIMS_PARAMETER, each
 * off by default) and an admin then per client. Off, the provider neither serves nor advertises
 * the feature, and a client's setting for it is left out of the metadata the provider reads
 * (clientMetadataWithin): the provider would refuse metadata naming a feature it does not have,
 * and the whole client with it.
 */
import { createHmac } from 'node:crypto';
import type { Configuration, KoaContextWithOIDC } from 'oidc-provider';
import type { ClientMetadata } from '../clients/repository.ts';
import { DEVICE_CODE_GRANT, REQUEST_OBJECT_SIGNING_ALGS } from '../clients/protocol-features.ts';
import type { Throttle } from '../platform/throttle.ts';
import type { Database } from '../db/database.ts';
import { randomServerSecret } from '../db/secrets.ts';
import { deviceSuccessSource, userCodeConfirmSource, userCodeInputSource } from './device-pages.ts';
import type { PageSettings } from './provider-pages.ts';

export interface ProtocolFeatures {
  deviceFlow: boolean;
  pushedAuthorizationRequests: boolean;
  requestObjects: boolean;
  dPoP: boolean;
  pairwiseSubjects: boolean;
  claimsParameter: boolean;
}

export const NO_PROTOCOL_FEATURES: ProtocolFeatures = {
  deviceFlow: false,
  pushedAuthorizationRequests: false,
  requestObjects: false,
  dPoP: false,
  pairwiseSubjects: false,
  claimsParameter: false,
};

/** The switches as the environment gives them. */
export function protocolFeaturesOf(config: {
  DEVICE_FLOW: 'on' | 'off';
  PUSHED_AUTHORIZATION_REQUESTS: 'on' | 'off';
  REQUEST_OBJECTS: 'on' | 'off';
  DPOP: 'on' | 'off';
  PAIRWISE_SUBJECTS: 'on' | 'off';
  CLAIMS_PARAMETER: 'on' | 'off';
}): ProtocolFeatures {
  return {
    deviceFlow: config.DEVICE_FLOW === 'on',
    pushedAuthorizationRequests: config.PUSHED_AUTHORIZATION_REQUESTS === 'on',
    requestObjects: config.REQUEST_OBJECTS === 'on',
    dPoP: config.DPOP === 'on',
    pairwiseSubjects: config.PAIRWISE_SUBJECTS === 'on',
    claimsParameter: config.CLAIMS_PARAMETER === 'on',
  };
}

/** Shared by every instance (server_secrets, sealed): a DPoP nonce made by one is accepted by all, a pairwise sub is the same everywhere. */
export interface ProtocolSecrets {
  /** 32 bytes: the HMAC key of DPoP server nonces (RFC 9449 §8). */
  dpopNonceSecret?: Buffer;
  /** The HMAC key of pairwise subjects (OIDC Core §8.1). Never rotated: every pairwise sub depends on it. */
  pairwiseSalt?: string;
}

/**
 * A client's metadata without what the instance has off, the same object while nothing is
 * left out (oidc-provider's Client is kept by that object: lib/oidc/stored-clients.ts), and one
 * kept copy per object otherwise.
 */
export function clientMetadataWithin(features: ProtocolFeatures) {
  const kept = new WeakMap<ClientMetadata, ClientMetadata>();
  return (metadata: ClientMetadata | undefined): ClientMetadata | undefined => {
    if (!metadata) return metadata;
    const off = {
      grant: !features.deviceFlow && metadata.grant_types.includes(DEVICE_CODE_GRANT),
      par: !features.pushedAuthorizationRequests && metadata.require_pushed_authorization_requests !== undefined,
      jar: !features.requestObjects && metadata.request_object_signing_alg !== undefined,
      dpop: !features.dPoP && metadata.dpop_bound_access_tokens !== undefined,
      pairwise: !features.pairwiseSubjects && (metadata.subject_type !== undefined || metadata.sector_identifier_uri !== undefined),
    };
    if (!Object.values(off).some(Boolean)) return metadata;
    let within = kept.get(metadata);
    if (!within) {
      const {
        require_pushed_authorization_requests: par,
        request_object_signing_alg: jar,
        require_signed_request_object: signed,
        dpop_bound_access_tokens: dpop,
        subject_type: subjectType,
        sector_identifier_uri: sector,
        ...rest
      } = metadata;
      within = {
        ...rest,
        grant_types: off.grant ? metadata.grant_types.filter((grant) => grant !== DEVICE_CODE_GRANT) : metadata.grant_types,
        ...(off.par ? {} : { require_pushed_authorization_requests: par }),
        ...(off.jar ? {} : { request_object_signing_alg: jar, require_signed_request_object: signed }),
        ...(off.dpop ? {} : { dpop_bound_access_tokens: dpop }),
        ...(off.pairwise ? {} : { subject_type: subjectType, sector_identifier_uri: sector }),
      } as ClientMetadata;
      for (const key of Object.keys(within) as (keyof ClientMetadata)[]) if (within[key] === undefined) delete within[key];
      kept.set(metadata, within);
    }
    return within;
  };
}

const dpopNonceSecret = randomServerSecret('dpop_nonce_secret');
const pairwiseSalt = randomServerSecret('pairwise_salt');

/** The secrets of the features that are on, created on first use and sealed in server_secrets (lib/db/secrets.ts). */
export async function loadProtocolSecrets(db: Database, features: ProtocolFeatures): Promise<ProtocolSecrets> {
  const [nonce, salt] = await Promise.all([features.dPoP ? dpopNonceSecret(db) : undefined, features.pairwiseSubjects ? pairwiseSalt(db) : undefined]);
  // randomServerSecret's value is 32 random bytes as base64url: the nonce key is those bytes.
  return { dpopNonceSecret: nonce === undefined ? undefined : Buffer.from(nonce, 'base64url'), pairwiseSalt: salt };
}

/** OIDC Core §8.1: an HMAC of the sector and the account, so the same person has unrelated subs in different sectors. */
export function pairwiseSubject(salt: string, sector: string, accountId: string): string {
  return createHmac('sha256', salt).update(`${sector}\0${accountId}`).digest('base64url');
}

/** The provider options of the features that are on; each says why it is set as it is. */
export function protocolFeatureConfiguration(
  features: ProtocolFeatures,
  secrets: ProtocolSecrets,
  pages: PageSettings,
  throttle: Pick<Throttle, 'linkFailed'>,
): Pick<Configuration, 'subjectTypes' | 'pairwiseIdentifier' | 'sectorIdentifierUriValidate'> & {
  features: Pick<NonNullable<Configuration['features']>, 'deviceFlow' | 'pushedAuthorizationRequests' | 'requestObjects' | 'dPoP' | 'claimsParameter'>;
  requestObjectSigningAlgValues: NonNullable<Configuration['enabledJWA']>['requestObjectSigningAlgValues'];
} {
  const { pairwiseSalt, dpopNonceSecret } = secrets;
  if (features.pairwiseSubjects && !pairwiseSalt) throw new Error('PAIRWISE_SUBJECTS is on without its salt');
  if (features.dPoP && !dpopNonceSecret) throw new Error('DPOP is on without its nonce secret');
  return {
    subjectTypes: features.pairwiseSubjects ? ['public', 'pairwise'] : ['public'],
    ...(features.pairwiseSubjects && pairwiseSalt
      ? {
          // The library's Client has sectorIdentifier (from sector_identifier_uri, or the one redirect host) but does not type it.
          pairwiseIdentifier: async (_ctx: KoaContextWithOIDC, accountId: string, client: object) =>
            pairwiseSubject(pairwiseSalt, (client as { sectorIdentifier?: string }).sectorIdentifier ?? '', accountId),
        }
      : {}),
    // The sector identifier URI is fetched and checked when an admin saves the client
    // (lib/clients/protocol-features.ts), not again each time the provider builds the client.
    sectorIdentifierUriValidate: () => false,
    requestObjectSigningAlgValues: [...REQUEST_OBJECT_SIGNING_ALGS],
    features: {
      deviceFlow: {
        enabled: features.deviceFlow,
        // RFC 8628 §6.1: consonants only (BCDFGHJKLMNPQRSTVWXZ), no vowels that spell words, no 0/O or 1/I;
        // 20^8 ≈ 2.6e10 codes, alive 10 minutes (ttl.DeviceCode), their entry throttled (./device-pages.ts).
        charset: 'base-20',
        mask: '****-****',
        userCodeInputSource: userCodeInputSource(pages, throttle),
        userCodeConfirmSource: userCodeConfirmSource(pages),
        successSource: deviceSuccessSource(pages),
      },
      // Per client through require_pushed_authorization_requests; the request_uri is single-use and lives
      // 60 seconds (the library's defaults, RFC 9126 §2.2 and §4).
      pushedAuthorizationRequests: { enabled: features.pushedAuthorizationRequests, requirePushedAuthorizationRequests: false },
      // Signed request objects only: `none` is never among requestObjectSigningAlgValues.
      requestObjects: { enabled: features.requestObjects, requireSignedRequestObject: false },
      // Server nonces always (RFC 9449 §8), from a secret every instance shares, so a nonce from one is
      // good at another; proofs are remembered (ReplayDetection) in the shared store (lib/db/artifacts.ts).
      dPoP: { enabled: features.dPoP, ...(dpopNonceSecret ? { nonceSecret: dpopNonceSecret } : {}), requireNonce: () => true, allowReplay: false },
      claimsParameter: { enabled: features.claimsParameter },
    },
  };
}
