/**
 * next-auth, configured as an OpenID Connect relying party of this very
 * issuer: the portal signs admins in the way any application would, by
 * discovery, with the authorization code flow, PKCE and state.
 *
 * Built lazily at request time (`next build` has no database) and once per
 * process (kept on globalThis: route handlers and pages are separate module
 * graphs). Both secrets come from `server_secrets`, so every instance can
 * finish a sign-in another one started and read each other's sessions.
 */
import 'server-only';
import { randomBytes } from 'node:crypto';
import type { AuthOptions } from 'next-auth';
import { brand } from '../../config/brand.ts';
import { env } from '../../config/env.ts';
import { sessionUidOfAccessToken } from '../../account/repository.ts';
import { serverContext } from '../../context.ts';
import { serverSecret } from '../../db/secrets.ts';
import { PORTAL_CLIENT_ID, PORTAL_PROVIDER_ID, portalClientSecret } from '../../clients/portal-client.ts';

/** How long a portal session lasts before the admin goes back through Gatehouse (whose own session may still be there). */
const PORTAL_SESSION_TTL = 8 * 3600;

const globalForPortal = globalThis as typeof globalThis & { __gatehousePortalAuth?: Promise<AuthOptions> };

/**
 * next-auth takes its own URL from NEXTAUTH_URL, and without it from the Host
 * and X-Forwarded-* headers (with AUTH_TRUST_HOST), which a client can set.
 * Pinned to ISSUER before any next-auth code runs, whatever the environment says.
 */
export function pinNextAuthUrl(): string {
  const issuer = env().ISSUER;
  process.env.NEXTAUTH_URL = issuer;
  return issuer;
}

export function portalAuthOptions(): Promise<AuthOptions> {
  pinNextAuthUrl();
  globalForPortal.__gatehousePortalAuth ??= buildOptions().catch((error) => {
    globalForPortal.__gatehousePortalAuth = undefined; // let the next request try again
    throw error;
  });
  return globalForPortal.__gatehousePortalAuth;
}

/** The portal session's secret (next-auth derives the JWE key of its session cookie from it). */
export function portalSessionSecret(): Promise<string> {
  return serverSecret(serverContext().db, 'portal_session_secret', () => randomBytes(32).toString('base64url'));
}

/** next-auth's cookie names follow the scheme of its URL (`__Secure-`/`__Host-` prefixes over https). */
export function portalCookieNames(issuer = env().ISSUER) {
  const secure = issuer.startsWith('https:');
  return {
    secure,
    sessionToken: `${secure ? '__Secure-' : ''}next-auth.session-token`,
    csrfToken: `${secure ? '__Host-' : ''}next-auth.csrf-token`,
    callbackUrl: `${secure ? '__Secure-' : ''}next-auth.callback-url`,
  };
}

async function buildOptions(): Promise<AuthOptions> {
  const issuer = env().ISSUER;
  const [clientSecret, secret] = await Promise.all([portalClientSecret(serverContext().db), portalSessionSecret()]);
  return {
    secret,
    providers: [
      {
        id: PORTAL_PROVIDER_ID,
        name: brand().name,
        type: 'oauth',
        wellKnown: `${issuer}/.well-known/openid-configuration`,
        clientId: PORTAL_CLIENT_ID,
        clientSecret,
        authorization: { params: { scope: 'openid profile email' } },
        // Gatehouse requires PKCE of every client (RFC 9700 §2.1.1); state binds the callback to this browser.
        checks: ['pkce', 'state'],
        // The subject comes from the verified ID token; the portal reads everything else from the database.
        idToken: true,
        profile: (claims: { sub: string; name?: string; preferred_username?: string; email?: string }) => ({
          id: claims.sub,
          name: claims.name ?? claims.preferred_username ?? null,
          email: claims.email ?? null,
        }),
      },
    ],
    session: { strategy: 'jwt', maxAge: PORTAL_SESSION_TTL },
    jwt: { maxAge: PORTAL_SESSION_TTL },
    // Sign-in starts at /admin/sign-in or /account/sign-in (./sign-in.ts); next-auth sends only its errors here.
    pages: { signIn: '/sign-in', error: '/sign-in' },
    callbacks: {
      // The ID token stays in the encrypted session cookie for RP-initiated logout's id_token_hint.
      async jwt({ token, account }) {
        if (account?.id_token) token.idToken = account.id_token;
        if (account) {
          // A portal session lives only as long as the Gatehouse session it came
          // from (lib/surfaces/portal/session.ts): none is opened without one.
          const sessionUid = account.access_token ? await gatehouseSessionUid(account.access_token) : undefined;
          if (!sessionUid) throw new Error('the sign-in is not bound to a Gatehouse session');
          token.sessionUid = sessionUid;
        }
        return token;
      },
      // What getServerSession returns: only the subject, never the ID token.
      session({ session, token }) {
        return { expires: session.expires, sub: token.sub } as unknown as typeof session;
      },
    },
  };
}

/**
 * Which Gatehouse session a portal sign-in came from, read once at sign-in
 * from the access token just issued (the provider records the session's uid
 * on it). The ID token cannot say: oidc-provider puts `sid` in it only for
 * clients registered for back-channel logout. With it the portal session
 * follows the Gatehouse session (lib/surfaces/portal/access.ts), and the
 * account page knows which session is "this browser".
 */
function gatehouseSessionUid(accessToken: string): Promise<string | undefined> {
  const { db, now } = serverContext();
  return sessionUidOfAccessToken(db, accessToken, now());
}
