/**
 * The person's time zone, where the browser told it: a cookie that a tiny script in every page sets from
 * `Intl.DateTimeFormat().resolvedOptions().timeZone` (app/layout.tsx, under the page's CSP nonce).
 * Without JavaScript, or before that script first ran, there is none: pages show UTC and say so.
 * Pure: no request is read here (lib/i18n/request.ts reads the cookie).
 */

/** The cookie's name; its value is an IANA time zone name, as the browser reports it. */
export const TIME_ZONE_COOKIE = 'gatehouse_tz';

/** What pages use when the person's time zone is not known. */
export const FALLBACK_TIME_ZONE = 'UTC';

let known: Set<string> | undefined;

/**
 * The time zone a cookie names, if it is one of Intl's (`Intl.supportedValuesOf('timeZone')`), under the
 * name Intl lists it by (a browser may report `Asia/Kolkata` where this Node's ICU lists `Asia/Calcutta`);
 * anything else (a made-up name, an offset such as `+05:00`, junk) is undefined, and the page shows UTC.
 */
export function validTimeZone(value: string | undefined): string | undefined {
  if (!value || value.length > 64 || !/^[A-Za-z0-9_+\-/]+$/.test(value)) return undefined;
  if (value === 'UTC' || value === 'Etc/UTC') return 'UTC';
  known ??= new Set(Intl.supportedValuesOf('timeZone'));
  if (known.has(value)) return value;
  try {
    const canonical = new Intl.DateTimeFormat('en', { timeZone: value }).resolvedOptions().timeZone;
    return known.has(canonical) ? canonical : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The script that tells the server the browser's time zone, for the next page it renders: it sets the
 * cookie when it is missing or different. Inline, so it runs before anything else and needs no request
 * of its own; it reads nothing but Intl and writes nothing but the cookie. `secure` on an https issuer.
 */
export function timeZoneScript(secure: boolean): string {
  const attributes = `;path=/;max-age=31536000;samesite=lax${secure ? ';secure' : ''}`;
  return `(function(){try{var z=Intl.DateTimeFormat().resolvedOptions().timeZone;if(!z)return;var c='${TIME_ZONE_COOKIE}='+encodeURIComponent(z);if((';'+document.cookie.replace(/\\s/g,'')+';').indexOf(';'+c+';')<0)document.cookie=c+'${attributes}'}catch(e){}})();`;
}
