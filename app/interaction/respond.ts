// Turns an interaction use case's outcome into the 303 the browser follows.
import { env } from '@/lib/config/env';
import type { Next } from '@/lib/services/interactions';

/**
 * Form posts to /interaction/* must come from our own pages. The signed,
 * SameSite=Lax interaction cookie already stops cross-site posts; checking
 * Origin (sent by browsers on every POST) is the second lock.
 */
export function isSameOrigin(request: Request): boolean {
  const origin = request.headers.get('origin');
  return origin === null || origin === new URL(env().ISSUER).origin;
}

export function respond(uid: string, next: Next): Response {
  const location =
    'redirect' in next
      ? next.redirect
      : new URL(`/interaction/${encodeURIComponent(uid)}?error=${next.error}`, env().ISSUER).toString();
  return new Response(null, { status: 303, headers: { location, 'cache-control': 'no-store' } });
}

export function forbidden(): Response {
  return Response.json({ error: 'access_denied', error_description: 'cross-origin form posts are not accepted' }, { status: 403 });
}

/** The form body, or undefined when it is not a form (a clear 400 instead of a crash). */
export async function formOf(request: Request): Promise<FormData | undefined> {
  try {
    return await request.formData();
  } catch {
    return undefined;
  }
}

export function badForm(): Response {
  return Response.json({ error: 'invalid_request', error_description: 'expected an application/x-www-form-urlencoded body' }, { status: 400 });
}

/** Cookie carrying the username back to the login form after a failed attempt (never the password). */
export const LAST_USERNAME_COOKIE = 'gatehouse_last_username';

export function rememberUsername(response: Response, uid: string, username: FormDataEntryValue | null): void {
  if (typeof username !== 'string' || !username.trim()) return;
  const secure = env().ISSUER.startsWith('https:') ? '; Secure' : '';
  response.headers.append(
    'set-cookie',
    `${LAST_USERNAME_COOKIE}=${encodeURIComponent(username.trim().slice(0, 64))}; Path=/interaction/${encodeURIComponent(uid)}; Max-Age=600; HttpOnly; SameSite=Lax${secure}`,
  );
}
