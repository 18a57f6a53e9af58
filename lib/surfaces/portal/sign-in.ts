/**
 * Starting the portal's sign-in: GET /admin/sign-in and GET /account/sign-in
 * send the browser straight to Gatehouse's sign-in page, with no "Sign in
 * with …" page in between (there is only one provider: nothing to choose).
 *
 * next-auth 4 starts the authorization code flow only from a POST to
 * /api/auth/signin/<provider> that carries its double-submit CSRF token; its
 * GET shows a page. This does that POST's work on the server: it mints the
 * CSRF cookie the way next-auth does (`token|sha256(token + secret)`) into
 * this request's cookies, then hands next-auth the POST it expects. next-auth
 * answers with the redirect to the authorization endpoint and its state, PKCE
 * and callback-URL cookies, which the browser keeps. It works without
 * JavaScript and needs no page that submits itself.
 *
 * Why a GET may start it: next-auth's CSRF token guards against a page that
 * signs someone in to an attacker's account; with an OpenID Connect provider
 * the code is bound to this browser's state and PKCE cookies, so a forged
 * start can only lead the person to sign in as themselves, like any
 * "Sign in" link of any relying party.
 */
import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import NextAuth from 'next-auth';
import { cookies } from 'next/headers';
import { NextRequest } from 'next/server';
import { portalAuthOptions, portalCookieNames, portalSessionSecret, pinNextAuthUrl } from './auth.ts';
import { PORTAL_PROVIDER_ID } from '../../clients/portal-client.ts';
import { safeReturnTo, type PortalArea } from './return-to.ts';
import { currentAdmin, currentUser } from './session.ts';

/** GET <area>/sign-in?callbackUrl=…: signed in already, back there; otherwise on to Gatehouse's sign-in. */
export async function startPortalSignIn(request: Request, area: PortalArea): Promise<Response> {
  // Next's router fetches a route's RSC payload on client navigation and prefetch: answer those with no
  // flight data, so the router navigates the whole page here instead (and a prefetch starts nothing).
  if (request.headers.get('rsc')) return new Response(null, { status: 204, headers: { 'cache-control': 'no-store' } });
  const issuer = pinNextAuthUrl();
  const asked = new URL(request.url).searchParams.get('callbackUrl');
  const callbackUrl = asked ? safeReturnTo(asked, issuer) : area;
  // ?reauthenticate=1 (linking another identity from /account): the person signs in again (prompt=login), though signed in.
  const reauthenticate = new URL(request.url).searchParams.get('reauthenticate') === '1';
  const signedIn = area === '/account' ? await currentUser() : await currentAdmin();
  if (signedIn && !reauthenticate) return Response.redirect(new URL(callbackUrl, issuer), 303);

  const names = portalCookieNames(issuer);
  const token = randomBytes(32).toString('hex');
  const hash = createHash('sha256')
    .update(`${token}${await portalSessionSecret()}`)
    .digest('hex');
  // Read back by next-auth's handler from this request's cookies (Next's cookies() reads what was set in it).
  (await cookies()).set(names.csrfToken, `${token}|${hash}`, { path: '/', httpOnly: true, sameSite: 'lax', secure: names.secure });
  // next-auth passes the sign-in POST's query on to the authorization request.
  const post = new NextRequest(`${issuer}/api/auth/signin/${PORTAL_PROVIDER_ID}${reauthenticate ? '?prompt=login' : ''}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ csrfToken: token, callbackUrl }),
  });
  return NextAuth(await portalAuthOptions())(post, { params: Promise.resolve({ nextauth: ['signin', PORTAL_PROVIDER_ID] }) });
}
