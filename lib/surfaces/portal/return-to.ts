/**
 * Where the portal may send the browser after sign-in: a page of the admin
 * area or of /account on our own origin, nothing else (no open redirect, and
 * never back to the sign-in or signed-out pages, which would loop).
 */
const areas = ['/admin', '/account'];
const notAfterSignIn = new Set(['/admin/sign-in', '/admin/signed-out', '/account/sign-in', '/account/signed-out']);

export type PortalArea = '/admin' | '/account';

export function safeReturnTo(value: unknown, issuer: string): string {
  if (typeof value !== 'string' || !value) return '/admin';
  const url = URL.parse(value, issuer);
  if (!url || url.origin !== new URL(issuer).origin) return '/admin';
  const inArea = areas.some((area) => url.pathname === area || url.pathname.startsWith(`${area}/`));
  if (!inArea || notAfterSignIn.has(url.pathname)) return '/admin';
  return url.pathname + url.search;
}

/** Whether a (safe) return path is the account area rather than the admin area: the sign-in page speaks to each. */
export function isAccountPath(path: string): boolean {
  return path === '/account' || path.startsWith('/account/');
}

/** The sign-in address of the area `returnTo` is in (each speaks its own words), coming back there afterwards. */
export function signInPathFor(returnTo: string): string {
  const area: PortalArea = isAccountPath(returnTo) ? '/account' : '/admin';
  return `${area}/sign-in?callbackUrl=${encodeURIComponent(returnTo)}`;
}
