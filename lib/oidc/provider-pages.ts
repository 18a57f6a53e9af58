/**
 * The pages oidc-provider renders itself (lib/oidc/configuration.ts names them:
 * renderError, logoutSource, postLogoutSuccessSource), in the person's language:
 * the request's `ui_locales` (OIDC Core §3.1.2.1; RP-Initiated Logout 1.0 §2), else
 * the browser's Accept-Language, else DEFAULT_LOCALE (lib/i18n/locale.ts).
 *
 * An error page says what happened in plain words and what the person can do; the
 * request id (X-Request-Id, which the answer carries too) is there for support, and
 * the protocol's own words (`error`, `error_description`) only as a detail. A link
 * back to the application is offered only where its address is known to be safe
 * (lib/oidc/return-link.ts); an unknown client or an unregistered redirect_uri is a
 * clear stop (RFC 6749 §4.1.2.1: never redirect to it).
 */
import { createHash } from 'node:crypto';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { PORTAL_CLIENT_ID } from '../clients/portal-client.ts';
import { type Locale, LOCALE_COOKIE, negotiateLocale } from '../i18n/locale.ts';
import { translator } from '../i18n/messages.ts';
import { escapeHtml, type ProviderPages } from './html.ts';
import { appOrigin } from './return-link.ts';
import { serverErrorDescription } from './server-errors.ts';

type ErrorKind = 'invalid_client' | 'client_disabled' | 'invalid_redirect_uri' | 'expired' | 'server_error' | 'other';

/** The error as the person is told about it; the protocol's code stays in the details. */
export function errorKind(code: string, name: string | undefined): ErrorKind {
  if (code === 'invalid_client') return 'invalid_client';
  if (code === 'invalid_redirect_uri') return 'invalid_redirect_uri';
  // oidc-provider's SessionNotFound (code invalid_request): the interaction or its cookie is gone.
  if (name === 'SessionNotFound') return 'expired';
  if (code === 'server_error') return 'server_error';
  return 'other';
}

const stringOrUndefined = (value: unknown) => (typeof value === 'string' ? value : undefined);

interface Parameters {
  client_id?: unknown;
  redirect_uri?: unknown;
  ui_locales?: unknown;
}

/** What the request said, from the parsed parameters, or (for a resumed request) the interaction's stored ones. */
function parametersOf(ctx: KoaContextWithOIDC): { request: Parameters; interaction: Parameters } {
  const oidc = ctx.oidc as Partial<KoaContextWithOIDC['oidc']> | undefined;
  const interaction = (oidc?.entities as { Interaction?: { params?: Parameters } } | undefined)?.Interaction?.params ?? {};
  return { request: (oidc?.params as Parameters | undefined) ?? (ctx.query as Parameters) ?? {}, interaction };
}

/** The language of one of the provider's pages. */
export function localeOf(ctx: KoaContextWithOIDC, defaultLocale: Locale): Locale {
  const { request, interaction } = parametersOf(ctx);
  return negotiateLocale({
    // Unsigned: the sign-in pages' switcher sets it (app/language/route.ts); any value that is no language is ignored.
    chosen: ctx.cookies?.get(LOCALE_COOKIE, { signed: false }),
    uiLocales: stringOrUndefined(request.ui_locales) ?? stringOrUndefined(interaction.ui_locales),
    acceptLanguage: ctx.get('accept-language'),
    defaultLocale,
  });
}

/**
 * The application to go back to, when the error leaves no doubt about it: its client is
 * registered, and the redirect_uri of the request (or of the interaction it resumed) is
 * one of its registered ones. Never for an unknown client or an unregistered redirect_uri.
 */
async function backLink(ctx: KoaContextWithOIDC, kind: ErrorKind): Promise<{ name: string; href: string } | undefined> {
  // A disabled client's app is known, but it cannot take anyone back either: its sign-ins are off.
  if (kind === 'invalid_client' || kind === 'client_disabled' || kind === 'invalid_redirect_uri') return undefined;
  const { request, interaction } = parametersOf(ctx);
  const clientId = stringOrUndefined(interaction.client_id) ?? stringOrUndefined(request.client_id);
  const redirectUri = interaction.redirect_uri ?? request.redirect_uri;
  if (!clientId) return undefined;
  try {
    const client = ctx.oidc?.client?.clientId === clientId ? ctx.oidc.client : await ctx.oidc?.provider.Client.find(clientId);
    const href = client ? appOrigin(client.redirectUris, redirectUri) : undefined;
    return client && href ? { name: client.clientName ?? client.clientId, href } : undefined;
  } catch {
    return undefined; // a client that fails to load is no client to send anyone back to
  }
}

/** The request id and the protocol's words, small, under the page's message. */
function supportBlock(locale: Locale, requestId: string | undefined, code: string, description: string | undefined): string {
  const t = translator(locale, 'support');
  const id = requestId ? `<p>${escapeHtml(t('requestId'))} <code>${escapeHtml(requestId)}</code></p>` : '';
  const detail = `<p><code>${escapeHtml(code)}</code></p>${description ? `<p>${escapeHtml(description)}</p>` : ''}`;
  return `<div class="support">${id}<details><summary>${escapeHtml(t('details'))}</summary>${detail}</details></div>`;
}

export interface PageSettings {
  pages: ProviderPages;
  brandName: string;
  defaultLocale: Locale;
  /**
   * Whether `clientId` names a client an admin disabled: to the provider it is unknown (invalid_client),
   * but the person is told the app is disabled rather than "not registered".
   */
  clientDisabled?: (clientId: string) => Promise<boolean>;
}

/** invalid_client for a client that is registered but disabled: said as such. */
async function refineKind(kind: ErrorKind, ctx: KoaContextWithOIDC, clientDisabled: PageSettings['clientDisabled']): Promise<ErrorKind> {
  if (kind !== 'invalid_client' || !clientDisabled) return kind;
  const { request, interaction } = parametersOf(ctx);
  const clientId = stringOrUndefined(interaction.client_id) ?? stringOrUndefined(request.client_id);
  if (!clientId || clientId.length > 200) return kind;
  try {
    return (await clientDisabled(clientId)) ? 'client_disabled' : kind;
  } catch {
    return kind; // a lookup that fails says no more than the provider did
  }
}

/** renderError: errors that cannot go back to the client (an unknown client, an unregistered redirect_uri, a lost interaction). */
export async function renderErrorPage(
  { pages, brandName, defaultLocale, clientDisabled }: PageSettings,
  ctx: KoaContextWithOIDC,
  out: { error: string; error_description?: string },
  error: Error,
): Promise<void> {
  const locale = localeOf(ctx, defaultLocale);
  const t = translator(locale, 'providerPages');
  const kind = await refineKind(errorKind(out.error, error?.name), ctx, clientDisabled);
  const back = await backLink(ctx, kind);
  const title = t(`errors.${kind}.title`);
  const next = back
    ? `<p>${escapeHtml(t('goBack', { client: back.name }))}</p><a class="button" href="${escapeHtml(back.href)}">${escapeHtml(t('back', { client: back.name }))}</a>`
    : kind === 'server_error'
      ? ''
      : `<p>${escapeHtml(t('stop'))}</p>`;
  const requestId = ctx.get('x-request-id') || undefined;
  // The provider's own words for a server_error are "oops! something went wrong": the request id says more.
  const description = kind === 'server_error' && requestId ? serverErrorDescription(requestId) : out.error_description;
  ctx.type = 'html';
  ctx.body = pages.page(
    title,
    `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(t(`errors.${kind}.body`, { brand: brandName }))}</p>${next}${supportBlock(
      locale,
      requestId,
      out.error,
      description,
    )}`,
    locale,
  );
}

/**
 * Whether the logout needs no confirmation: the account portal asked for it with the ID token it
 * holds for the signed-in person (id_token_hint, which the provider has validated and which names
 * the portal as its audience), after its own Sign out button (a server action, Origin-checked).
 * RP-Initiated Logout 1.0 §2 asks for a confirmation so that a relying party cannot end the
 * session unasked; the portal is Gatehouse itself, and only its session cookie holds that token.
 * The confirmation post still carries the session's xsrf secret.
 */
export function logoutAskedByPortal(ctx: KoaContextWithOIDC): boolean {
  const hint = (ctx.oidc.entities as { IdTokenHint?: { payload?: { sub?: unknown; aud?: unknown } } }).IdTokenHint;
  const accountId = ctx.oidc.session?.accountId;
  return ctx.oidc.client?.clientId === PORTAL_CLIENT_ID && hint?.payload?.aud === PORTAL_CLIENT_ID && Boolean(accountId) && hint.payload.sub === accountId;
}

/** Submits the provider's logout form (op.logoutForm) as confirmed, once the page is read. */
const SUBMIT_LOGOUT = "document.addEventListener('DOMContentLoaded',function(){document.getElementById('op.logoutForm').submit()})";

/** Allows the page's one inline script by its hash (CSP3 §2.3.1), as oidc-provider's form_post page does. */
function allowScript(ctx: KoaContextWithOIDC, script: string): void {
  const policy = ctx.response.get('content-security-policy');
  if (!policy) return;
  const hash = `'sha256-${createHash('sha256').update(script).digest('base64')}'`;
  ctx.set(
    'content-security-policy',
    policy
      .split(';')
      .map((directive) => (directive.trim().startsWith('script-src') ? `script-src ${hash}` : directive))
      .join(';'),
  );
}

/** logoutSource: the confirmation of RP-Initiated Logout 1.0 §2; `form` is the provider's hidden form (op.logoutForm). */
export function renderLogoutPage({ pages, brandName, defaultLocale }: PageSettings, ctx: KoaContextWithOIDC, form: string): void {
  const locale = localeOf(ctx, defaultLocale);
  const t = translator(locale, 'providerPages.logout');
  if (logoutAskedByPortal(ctx)) {
    // One click from /account or /admin: the form confirms itself; without JavaScript, one button does.
    const title = t('signingOut', { brand: brandName });
    allowScript(ctx, SUBMIT_LOGOUT);
    ctx.type = 'html';
    // logout=yes: the whole Gatehouse session ends, not only the portal's part of it.
    const confirmed = form.replace('</form>', '<input type="hidden" name="logout" value="yes"/></form>');
    ctx.body = pages.page(
      t('title'),
      `<h1>${escapeHtml(title)}</h1>${confirmed}<noscript><button class="primary" autofocus type="submit" form="op.logoutForm">${escapeHtml(t('continue'))}</button></noscript><script>${SUBMIT_LOGOUT}</script>`,
      locale,
    );
    return;
  }
  const client = ctx.oidc.client?.clientName ?? ctx.oidc.client?.clientId;
  ctx.type = 'html';
  ctx.body = pages.page(
    t('title'),
    `<h1>${escapeHtml(t('heading', { brand: brandName }))}</h1>
<p>${escapeHtml(client ? t('clientAsked', { client }) : t('youAsked'))}</p>${form}
<button class="primary" autofocus type="submit" form="op.logoutForm" value="yes" name="logout">${escapeHtml(t('yes'))}</button>
<button type="submit" form="op.logoutForm">${escapeHtml(t('no'))}</button>`,
    locale,
  );
}

/** postLogoutSuccessSource: after a logout with no post_logout_redirect_uri to go to. */
export function renderSignedOutPage({ pages, defaultLocale }: PageSettings, ctx: KoaContextWithOIDC): void {
  const locale = localeOf(ctx, defaultLocale);
  const t = translator(locale, 'providerPages.signedOut');
  ctx.type = 'html';
  ctx.body = pages.page(t('title'), `<h1>${escapeHtml(t('heading'))}</h1><p>${escapeHtml(t('body'))}</p>`, locale);
}
