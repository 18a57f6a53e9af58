/**
 * Where a dead-end page may send a person back to the application that sent them: the
 * origin of a redirect URI that is registered for that client. Only a registered URI
 * (RFC 6749 §3.1.2.2: the registration is what makes it trusted) and only http(s)
 * (a private-scheme URI of a native app, RFC 8252 §7.1, has no page to go back to).
 * The origin, not the URI itself: a redirect URI expects an authorization response,
 * and without one an application shows an error rather than its start page.
 */

/** The origin of `redirectUri` when it is one of `registered` and http(s); otherwise none (the page then stops, with no link). */
export function appOrigin(registered: readonly string[] | undefined, redirectUri: unknown): string | undefined {
  if (typeof redirectUri !== 'string' || !registered?.includes(redirectUri)) return undefined;
  const url = URL.parse(redirectUri);
  return url && (url.protocol === 'https:' || url.protocol === 'http:') ? `${url.origin}/` : undefined;
}

/** The host a redirect URI names, as the consent page shows the application's domain; none for a private-scheme URI. */
export function appHost(redirectUri: unknown): string | undefined {
  if (typeof redirectUri !== 'string') return undefined;
  const url = URL.parse(redirectUri);
  return url && (url.protocol === 'https:' || url.protocol === 'http:') ? url.host : undefined;
}

/** A logo_uri a page may show: https only (registration accepts no other; a row stored before that rule may hold anything). */
export const httpsOnly = (uri: string | null | undefined) => (uri && URL.parse(uri)?.protocol === 'https:' ? uri : undefined);
