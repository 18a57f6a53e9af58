/**
 * The portal session in pages and server actions. `requireAdmin()` is the
 * authorization check: every admin page and every server action calls it
 * itself (a layout does not run for a server action, and may be skipped on
 * client navigation). It reads the next-auth session, then the user from the
 * database, every time.
 */
import 'server-only';
import { createHash, timingSafeEqual } from 'node:crypto';
import { getServerSession } from 'next-auth';
import { getToken } from 'next-auth/jwt';
import { cookies } from 'next/headers';
import { forbidden, redirect } from 'next/navigation';
import { env } from '../../config/env.ts';
import { database } from '../../db/database.ts';
import { adminAccess, type AdminUser } from './access.ts';
import { pinNextAuthUrl, portalAuthOptions, portalCookieNames, portalSessionSecret } from './auth.ts';
import { PORTAL_CLIENT_ID, SIGNED_OUT_PATH } from './registration.ts';
import { safeReturnTo } from './return-to.ts';

export type { AdminUser };

async function sessionSubject(): Promise<string | undefined> {
  const session = (await getServerSession(await portalAuthOptions())) as { sub?: unknown } | null;
  return typeof session?.sub === 'string' ? session.sub : undefined;
}

/**
 * The signed-in admin, or: signed-out visitors are sent to sign in (and back
 * to `returnTo` afterwards); anyone else gets the 403 page.
 */
export async function requireAdmin(returnTo = '/admin'): Promise<AdminUser> {
  const access = await adminAccess(database(), await sessionSubject());
  if (access.kind === 'signed_out') redirect(signInPath(returnTo));
  if (access.kind === 'forbidden') forbidden();
  return access.admin;
}

/** For display only (the layout's header): the admin if there is one. Never an authorization check. */
export async function currentAdmin(): Promise<AdminUser | undefined> {
  const access = await adminAccess(database(), await sessionSubject());
  return access.kind === 'admin' ? access.admin : undefined;
}

/** Whether anyone at all is signed in to the portal (the 403 page offers to sign out). */
export async function hasPortalSession(): Promise<boolean> {
  return (await sessionSubject()) !== undefined;
}

/**
 * Sign-in starts at next-auth's GET /api/auth/signin, which sets its CSRF
 * cookie and sends the browser on to our sign-in page (pages.signIn).
 */
export function signInPath(returnTo: string): string {
  return `/api/auth/signin?callbackUrl=${encodeURIComponent(safeReturnTo(returnTo, env().ISSUER))}`;
}

export type SignInView =
  | { kind: 'form'; csrfToken: string; callbackUrl: string }
  /** No CSRF cookie yet: go through next-auth once to get one. */
  | { kind: 'restart'; location: string }
  /** next-auth set the cookie and the browser did not send it back. */
  | { kind: 'cookies_blocked' };

/**
 * What the sign-in page needs: next-auth's double-submit CSRF token, read from
 * its cookie (`token|sha256(token + secret)`) and checked the way next-auth
 * checks it, so the form's POST to /api/auth/signin/gatehouse is accepted.
 * This is what next-auth's own sign-in page does, with our page around it.
 */
export async function signInView(params: { callbackUrl?: unknown; via?: unknown }): Promise<SignInView> {
  pinNextAuthUrl();
  const callbackUrl = safeReturnTo(params.callbackUrl, env().ISSUER);
  const value = (await cookies()).get(portalCookieNames().csrfToken)?.value ?? '';
  const [token = '', hash = ''] = value.split('|');
  const expected = createHash('sha256').update(`${token}${await portalSessionSecret()}`).digest();
  const presented = Buffer.from(hash, 'hex');
  if (token && presented.length === expected.length && timingSafeEqual(presented, expected)) {
    return { kind: 'form', csrfToken: token, callbackUrl };
  }
  return params.via === 'auth' ? { kind: 'cookies_blocked' } : { kind: 'restart', location: signInPath(callbackUrl) };
}

/**
 * Ends the portal session (its cookie, in every chunk next-auth split it into)
 * and returns where the browser goes next: Gatehouse's end_session endpoint
 * (OIDC RP-Initiated Logout §2) with the ID token as id_token_hint, which ends
 * the Gatehouse session too and comes back to the signed-out page.
 */
export async function endPortalSession(): Promise<string> {
  const issuer = pinNextAuthUrl();
  const jar = await cookies();
  const names = portalCookieNames(issuer);
  const token = await getToken({
    req: { cookies: Object.fromEntries(jar.getAll().map((c) => [c.name, c.value])), headers: {} } as never,
    secret: await portalSessionSecret(),
    secureCookie: names.secure,
  }).catch(() => null);
  for (const cookie of jar.getAll()) {
    if (cookie.name === names.sessionToken || cookie.name.startsWith(`${names.sessionToken}.`)) {
      jar.set(cookie.name, '', { path: '/', maxAge: 0, httpOnly: true, sameSite: 'lax', secure: names.secure });
    }
  }
  const logout = new URL('/oauth/logout', issuer);
  if (typeof token?.idToken === 'string') logout.searchParams.set('id_token_hint', token.idToken);
  logout.searchParams.set('client_id', PORTAL_CLIENT_ID);
  logout.searchParams.set('post_logout_redirect_uri', `${issuer}${SIGNED_OUT_PATH}`);
  return logout.toString();
}
