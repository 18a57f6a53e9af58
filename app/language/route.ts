// POST /language — the sign-in pages' language switcher (components/interaction/language-switcher.tsx): keeps the
// chosen language in a cookie the language negotiation puts first (lib/i18n/locale.ts), then shows the same page again.
import { env } from '@/lib/config/env';
import { isLocale, LOCALE_COOKIE } from '@/lib/i18n/locale';

export const dynamic = 'force-dynamic';

/** A year: a language is a lasting preference, and the cookie says nothing but it. */
const MAX_AGE = 365 * 24 * 60 * 60;

/**
 * Where to go back to: a path on this server only (no scheme, no `//host`, no backslash that a browser
 * reads as a slash), so the switcher is no open redirect. Anything else goes to the landing page.
 */
function returnPath(value: FormDataEntryValue | null): string {
  return typeof value === 'string' && value.length <= 2000 && /^\/(?![/\\])[^\\]*$/.test(value) ? value : '/';
}

export async function POST(request: Request): Promise<Response> {
  // Our pages' forms only (Referrer-Policy same-origin keeps Origin on every post): another site cannot change
  // someone's language.
  if (request.headers.get('origin') !== new URL(env().ISSUER).origin) return new Response('Forbidden', { status: 403 });
  const form = await request.formData().catch(() => undefined);
  const locale = form?.get('locale');
  const location = new URL(returnPath(form?.get('return') ?? null), env().ISSUER).toString();
  const headers = new Headers({ location, 'cache-control': 'no-store' });
  if (isLocale(locale)) {
    const secure = env().ISSUER.startsWith('https:') ? '; Secure' : '';
    headers.append('set-cookie', `${LOCALE_COOKIE}=${locale}; Path=/; Max-Age=${MAX_AGE}; HttpOnly; SameSite=Lax${secure}`);
  }
  return new Response(null, { status: 303, headers });
}
