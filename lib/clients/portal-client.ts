/**
 * The admin portal is a relying party of Gatehouse itself: a first-party
 * confidential client with a fixed client_id whose secret every instance reads
 * from `server_secrets`, so any instance can redeem a code another one issued.
 * Its redirect URIs follow ISSUER: they are reset on every start.
 */
import { serverSecret } from '../db/secrets.ts';
import type { Database } from '../db/database.ts';
import { generateClientSecret } from '../oidc/client-secret.ts';
import type { NewClientInput } from './manage.ts';

export const PORTAL_CLIENT_ID = 'gatehouse-portal';
/** next-auth's provider id: it names the callback route /api/auth/callback/gatehouse. */
export const PORTAL_PROVIDER_ID = 'gatehouse';
/** Where RP-initiated logout sends the browser back to (OIDC RP-Initiated Logout §2), from the admin area. */
export const SIGNED_OUT_PATH = '/admin/signed-out';
/** The same, from /account: the account pages share the portal's client and session. */
export const ACCOUNT_SIGNED_OUT_PATH = '/account/signed-out';

export function portalRedirectUri(issuer: string): string {
  return `${issuer}/api/auth/callback/${PORTAL_PROVIDER_ID}`;
}

/**
 * `product` is the brand's name (BRAND_NAME): the portal is shown under it on the sign-in page ("to continue
 * to …") and among a person's connected apps, so it names neither area, admins and everyone sign in with it.
 */
export function portalRegistration(issuer: string, product = 'Gatehouse'): NewClientInput {
  return {
    name: `${product} account portal`,
    type: 'confidential',
    redirectUris: [portalRedirectUri(issuer)],
    postLogoutRedirectUris: [`${issuer}${SIGNED_OUT_PATH}`, `${issuer}${ACCOUNT_SIGNED_OUT_PATH}`],
    // No refresh tokens: the portal re-checks the admin on every request and
    // sends people back through Gatehouse when its own session ends.
    grantTypes: ['authorization_code'],
    scopes: ['openid', 'profile', 'email'],
    tokenEndpointAuthMethod: 'client_secret_basic',
    // Gatehouse's own application: never a consent screen (lib/oidc/grants.ts).
    firstParty: true,
    // next-auth 4's openid-client 5 verifies RS256 unless told otherwise, and
    // the portal signs in rarely enough that ES256's faster signing is moot.
    idTokenSignedResponseAlg: 'RS256',
  };
}

/** The portal's client secret, generated on first start and shared by every instance. */
export function portalClientSecret(db: Database): Promise<string> {
  return serverSecret(db, 'portal_client_secret', generateClientSecret);
}
