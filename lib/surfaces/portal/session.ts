/**
 * The portal session in pages and server actions. `requireAdmin(permission)`
 * (the admin area) and `requireUser()` (/account, any role) are the authorization checks:
 * every page and every server action calls one itself (a layout does not run
 * for a server action, and may be skipped on client navigation). They read the
 * next-auth session, then the user from the database, every time. The two
 * areas share one portal client and one session: an admin's /account is their
 * own, and anyone else's /admin is a 403.
 */
import 'server-only';
import { getToken, type JWT } from 'next-auth/jwt';
import { cookies } from 'next/headers';
import { forbidden, redirect } from 'next/navigation';
import { env } from '../../config/env.ts';
import { serverContext } from '../../context.ts';
import { adminAccess, enrolmentPath, gatehouseSessionAlive, userAccess, type AdminAccess, type AdminUser, type PortalUser } from './access.ts';
import { pinNextAuthUrl, portalCookieNames, portalSessionSecret } from './auth.ts';
import { PORTAL_CLIENT_ID, SIGNED_OUT_PATH } from '../../clients/portal-client.ts';
import { safeReturnTo, signInPathFor } from './return-to.ts';
import { may, mayActOn, mayActOnClient, type Permission } from '../../admin-roles/roles.ts';
import { findClient } from '../../clients/repository.ts';
import { findUserById } from '../../users/repository.ts';

/** What a change is made to, when its own role matters too (requireAdmin): a person's account, or a client. */
export type ActsOn = { userId: string } | { clientId: string };

export type { AdminUser, PortalUser };

/** Anyone signed in, and the Gatehouse session behind this portal sign-in when it is known. */
export interface SignedInUser extends PortalUser {
  sessionUid?: string;
}

/** next-auth's session cookie (an encrypted JWT), decoded; null without a valid one. */
async function portalToken(): Promise<JWT | null> {
  pinNextAuthUrl();
  const jar = await cookies();
  return getToken({
    req: { cookies: Object.fromEntries(jar.getAll().map((c) => [c.name, c.value])), headers: {} } as never,
    secret: await portalSessionSecret(),
    secureCookie: portalCookieNames().secure,
  }).catch(() => null);
}

/**
 * The portal session's subject, or undefined without a session. A portal
 * session is only as good as the live Gatehouse session it came from: one
 * whose Gatehouse session has ended (signed out elsewhere, "sign out
 * everywhere else", user disabled, password reset) or that names none at all
 * is no session. Whoever could mint a portal cookie would still need a live
 * session of the person they claim to be.
 */
async function sessionSubject(): Promise<{ sub: string; sessionUid: string } | undefined> {
  const token = await portalToken();
  const sub = typeof token?.sub === 'string' ? token.sub : undefined;
  const sessionUid = typeof token?.sessionUid === 'string' ? token.sessionUid : undefined;
  if (!sub || !sessionUid || !(await gatehouseSessionAlive(serverContext().db, sub, sessionUid, serverContext().now()))) return undefined;
  return { sub, sessionUid };
}

/**
 * The signed-in admin whose admin role may do `permission` (the table in
 * lib/admin-roles/roles.ts), or: signed-out visitors are sent to sign in (and
 * back to `returnTo` afterwards); anyone else gets the 403 page, which names
 * their role. With `actsOn`, a change to that person's account: their role must
 * be one the admin's may act on too (an owner's account only owners change).
 * The admin area's one check: every page and every server action calls it.
 */
export async function requireAdmin(permission: Permission, returnTo = '/admin', actsOn?: ActsOn): Promise<AdminUser> {
  const subject = await sessionSubject();
  const { db, config } = serverContext();
  const access = await adminAccess(db, subject?.sub, config.SECOND_FACTOR_REQUIRED);
  if (access.kind === 'signed_out') redirect(signInPath(returnTo));
  if (access.kind === 'forbidden') forbidden();
  // Set up a second factor first (SECOND_FACTOR_REQUIRED): on /account/security, in the same portal session.
  if (access.kind === 'enrol') redirect(enrolmentPath(config.SECOND_FACTOR_REQUIRED));
  if (!may(access.admin.role, permission)) forbidden();
  // An unknown id passes: the page or the use case answers it as not found.
  if (actsOn && 'userId' in actsOn) {
    const target = await findUserById(db, actsOn.userId).catch(() => undefined);
    if (target && !mayActOn(access.admin.role, target.role)) forbidden();
  }
  if (actsOn && 'clientId' in actsOn) {
    const target = await findClient(db, actsOn.clientId).catch(() => undefined);
    if (target && !mayActOnClient(access.admin.role, target)) forbidden();
  }
  return { ...access.admin, sessionUid: subject?.sessionUid };
}

/**
 * requireAdmin's check without its answers: the admin JSON API (lib/surfaces/admin-api)
 * answers a signed-out or forbidden caller with its own 401 or 403.
 */
export async function adminSessionAccess(): Promise<AdminAccess> {
  const { db, config } = serverContext();
  return adminAccess(db, (await sessionSubject())?.sub, config.SECOND_FACTOR_REQUIRED);
}

/** For display only (the layout's header): the admin if there is one. Never an authorization check. */
export async function currentAdmin(): Promise<AdminUser | undefined> {
  const { db, config } = serverContext();
  const access = await adminAccess(db, (await sessionSubject())?.sub, config.SECOND_FACTOR_REQUIRED);
  return access.kind === 'admin' || access.kind === 'enrol' ? access.admin : undefined;
}

/** The signed-in user, any role; signed-out visitors (and disabled users) are sent to sign in, and back to `returnTo`. */
export async function requireUser(returnTo = '/account'): Promise<SignedInUser> {
  const subject = await sessionSubject();
  const { db, config } = serverContext();
  const access = await userAccess(db, subject?.sub, config.SECOND_FACTOR_REQUIRED);
  if (access.kind === 'signed_out') redirect(signInPath(returnTo));
  // Under `everyone`, every account page but the one where the factor is set up waits for it.
  if (access.kind === 'enrol' && !returnTo.startsWith(SECURITY_PAGE)) redirect(enrolmentPath(config.SECOND_FACTOR_REQUIRED));
  return { ...access.user, sessionUid: subject?.sessionUid };
}

const SECURITY_PAGE = '/account/security';

/** For display only: the signed-in user if there is one. Never an authorization check. */
export async function currentUser(): Promise<PortalUser | undefined> {
  const { db, config } = serverContext();
  const access = await userAccess(db, (await sessionSubject())?.sub, config.SECOND_FACTOR_REQUIRED);
  return access.kind === 'signed_out' ? undefined : access.user;
}

/** Whether anyone at all is signed in to the portal (the 403 page offers to sign out). */
export async function hasPortalSession(): Promise<boolean> {
  return (await sessionSubject()) !== undefined;
}

/** Sign-in starts at the area's own sign-in route (lib/surfaces/portal/sign-in.ts), which goes straight on to Gatehouse. */
export function signInPath(returnTo: string): string {
  return signInPathFor(safeReturnTo(returnTo, env().ISSUER));
}

/**
 * Ends the portal session (its cookie, in every chunk next-auth split it into)
 * and returns where the browser goes next: Gatehouse's end_session endpoint
 * (OIDC RP-Initiated Logout §2) with the ID token as id_token_hint, which ends
 * the Gatehouse session too and comes back to `signedOutPath` (one of the
 * portal client's registered post_logout_redirect_uris).
 */
export async function endPortalSession(signedOutPath: string = SIGNED_OUT_PATH): Promise<string> {
  const issuer = pinNextAuthUrl();
  const jar = await cookies();
  const names = portalCookieNames(issuer);
  const token = await portalToken();
  for (const cookie of jar.getAll()) {
    if (cookie.name === names.sessionToken || cookie.name.startsWith(`${names.sessionToken}.`)) {
      jar.set(cookie.name, '', { path: '/', maxAge: 0, httpOnly: true, sameSite: 'lax', secure: names.secure });
    }
  }
  const logout = new URL('/oauth/logout', issuer);
  if (typeof token?.idToken === 'string') logout.searchParams.set('id_token_hint', token.idToken);
  logout.searchParams.set('client_id', PORTAL_CLIENT_ID);
  logout.searchParams.set('post_logout_redirect_uri', `${issuer}${signedOutPath}`);
  return logout.toString();
}
