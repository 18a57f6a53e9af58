/**
 * Where the portal may send the browser after sign-in: a page of the admin
 * area on our own origin, nothing else (no open redirect, and never back to
 * the sign-in or signed-out pages, which would loop).
 */
const notAfterSignIn = new Set(['/admin/sign-in', '/admin/signed-out']);

export function safeReturnTo(value: unknown, issuer: string): string {
  if (typeof value !== 'string' || !value) return '/admin';
  const url = URL.parse(value, issuer);
  if (!url || url.origin !== new URL(issuer).origin) return '/admin';
  if (!(url.pathname === '/admin' || url.pathname.startsWith('/admin/')) || notAfterSignIn.has(url.pathname)) return '/admin';
  return url.pathname + url.search;
}
