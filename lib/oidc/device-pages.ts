/**
 * The device authorization grant's pages (RFC 8628 §3.3), which oidc-provider
 * renders itself at /oauth/device (features.deviceFlow in ./configuration.ts):
 * where the person types the code their device shows, the confirmation that
 * names the app, and "you can go back to your device" once the usual sign-in,
 * second factor and consent are done. Same look, languages and colour schemes
 * as the provider's other pages (./provider-pages.ts).
 *
 * A wrong code counts against the source address like a wrong password
 * (lib/platform/throttle.ts, the link-token budget), and a source that must wait
 * is refused before the code is looked up (useUserCodeThrottle): user codes are
 * short (RFC 8628 §5.1 asks for rate limiting of their entry).
 */
import type { KoaContextWithOIDC } from 'oidc-provider';
import type Provider from 'oidc-provider';
import QRCode from 'qrcode';
import { translator } from '../i18n/messages.ts';
import type { Locale } from '../i18n/locale.ts';
import { clientIp } from '../platform/request-context.ts';
import type { Throttle } from '../platform/throttle.ts';
import type { Brand } from '../config/brand.ts';
import { escapeHtml, providerPages } from './html.ts';
import { localeOf, type PageSettings } from './provider-pages.ts';

type DeviceError = Error & { userCode?: string };

/** The library's re-render errors (oidc-provider lib/helpers/re_render_errors.js), in the page's words. */
const errorMessages: Record<string, 'wrongCode' | 'expiredCode' | 'usedCode' | 'noCode' | 'aborted'> = {
  NotFoundError: 'wrongCode',
  ExpiredError: 'expiredCode',
  AlreadyUsedError: 'usedCode',
  NoCodeError: 'noCode',
  AbortedError: 'aborted',
};

const ipOf = (ctx: KoaContextWithOIDC) => clientIp({ get: (name: string) => ctx.get(name) || null });

/** The session's xsrf secret and the form's target, as the library's own form carries them. */
function formTarget(ctx: KoaContextWithOIDC) {
  return { action: escapeHtml(ctx.oidc.urlFor('code_verification')), xsrf: escapeHtml(ctx.oidc.session?.state?.secret ?? '') };
}

function codeForm(ctx: KoaContextWithOIDC, locale: Locale, message: { text: string; alert: boolean }, code?: string): string {
  const t = translator(locale, 'providerPages.device');
  const { action, xsrf } = formTarget(ctx);
  const described = message.alert ? 'device-code-error device-code-hint' : 'device-code-hint';
  return `<h1>${escapeHtml(t('heading'))}</h1>
<p${message.alert ? ' id="device-code-error" role="alert" class="alert"' : ''}>${escapeHtml(message.text)}</p>
<form method="post" action="${action}"><input type="hidden" name="xsrf" value="${xsrf}">
<label for="user_code">${escapeHtml(t('codeLabel'))}</label>
<input id="user_code" name="user_code" type="text" autocomplete="one-time-code" autocapitalize="characters" spellcheck="false" required
 aria-describedby="${described}"${message.alert ? ' aria-invalid="true"' : ''}${code ? ` value="${escapeHtml(code)}"` : ''} autofocus>
<p id="device-code-hint" class="hint">${escapeHtml(t('codeHint'))}</p>
<button class="primary" type="submit">${escapeHtml(t('continue'))}</button></form>`;
}

/** features.deviceFlow.userCodeInputSource: the code entry, again with a message after a wrong one. */
export function userCodeInputSource(settings: PageSettings, throttle: Pick<Throttle, 'linkFailed'>) {
  return async (ctx: KoaContextWithOIDC, _form: string, _out?: unknown, err?: DeviceError): Promise<void> => {
    const locale = localeOf(ctx, settings.defaultLocale);
    const t = translator(locale, 'providerPages.device');
    if (err?.name === 'NotFoundError') await throttle.linkFailed(ipOf(ctx));
    const key = err ? (errorMessages[err.name] ?? 'otherError') : undefined;
    const message = key ? { text: t(key), alert: true } : { text: t('enterCode'), alert: false };
    ctx.type = 'html';
    ctx.body = settings.pages.page(t('title'), codeForm(ctx, locale, message, err?.name === 'NotFoundError' ? err.userCode : undefined), locale);
  };
}

/** RFC 8628 §3.3.1's verification_uri_complete: the page's address with the code, as the device was given it. */
export function verificationUriComplete(ctx: KoaContextWithOIDC, userCode: string): string {
  const url = new URL(ctx.oidc.urlFor('code_verification'));
  url.searchParams.set('user_code', userCode);
  return url.href;
}

/**
 * The QR code of `uri` as inline SVG, drawn here (no image is fetched from anywhere): dark modules on a white
 * quiet zone in both colour schemes, as scanners expect. The figure's text names it; the drawing itself is hidden
 * from assistive technology.
 */
export async function qrFigure(uri: string, caption: string): Promise<string> {
  const svg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return `<figure class="qr">${svg.trim().replace('<svg ', '<svg aria-hidden="true" focusable="false" ')}<figcaption>${escapeHtml(caption)}</figcaption></figure>`;
}

/** features.deviceFlow.userCodeConfirmSource: which app asks, the code to compare, confirm or cancel (RFC 8628 §5.4). */
export function userCodeConfirmSource(settings: PageSettings) {
  return async (ctx: KoaContextWithOIDC, _form: string, client: { clientId: string; clientName?: string }, _info: unknown, userCode: string) => {
    const locale = localeOf(ctx, settings.defaultLocale);
    const t = translator(locale, 'providerPages.device');
    const { action, xsrf } = formTarget(ctx);
    const code = escapeHtml(userCode);
    ctx.type = 'html';
    ctx.body = settings.pages.page(
      t('title'),
      `<h1>${escapeHtml(t('confirmHeading'))}</h1>
<p>${escapeHtml(t('confirmBody', { client: client.clientName ?? client.clientId, brand: settings.brandName }))}</p>
<p class="user-code"><code>${code}</code></p><p>${escapeHtml(t('confirmWarning'))}</p>
<form method="post" action="${action}"><input type="hidden" name="xsrf" value="${xsrf}"><input type="hidden" name="user_code" value="${code}">
<button class="primary" type="submit" name="confirm" value="yes" autofocus>${escapeHtml(t('confirm'))}</button>
<button type="submit" name="abort" value="yes">${escapeHtml(t('abort'))}</button></form>
${await qrFigure(verificationUriComplete(ctx, userCode), t('qrCaption'))}`,
      locale,
    );
  };
}

/** features.deviceFlow.successSource: the end of the person's part; the device's next poll gets the tokens. */
export function deviceSuccessSource(settings: PageSettings) {
  return async (ctx: KoaContextWithOIDC): Promise<void> => {
    const locale = localeOf(ctx, settings.defaultLocale);
    const t = translator(locale, 'providerPages.device');
    const client = ctx.oidc.client?.clientName ?? ctx.oidc.client?.clientId ?? '';
    ctx.type = 'html';
    ctx.body = settings.pages.page(t('successTitle'), `<h1>${escapeHtml(t('successHeading'))}</h1><p>${escapeHtml(t('successBody', { client }))}</p>`, locale);
  };
}

/**
 * Before a typed code is looked up (POST /oauth/device): a source that has guessed too often waits,
 * told so in its language with 429 and Retry-After. The confirmation step posts the code again and
 * passes here too, which is right: it is a lookup as well.
 */
export function useUserCodeThrottle(provider: Provider, path: string, settings: PageSettings, throttle: Pick<Throttle, 'beforeLinkCheck'>): void {
  provider.use(async (ctx, next) => {
    if (ctx.method !== 'POST' || ctx.path !== path) return next();
    const check = await throttle.beforeLinkCheck(ipOf(ctx as KoaContextWithOIDC));
    if (check.allowed) return next();
    const locale = localeOf(ctx as KoaContextWithOIDC, settings.defaultLocale);
    const t = translator(locale, 'providerPages.device');
    const minutes = check.retryAfterSeconds >= 60;
    const wait = new Intl.NumberFormat(locale, { style: 'unit', unit: minutes ? 'minute' : 'second', unitDisplay: 'long' }).format(
      minutes ? Math.ceil(check.retryAfterSeconds / 60) : check.retryAfterSeconds,
    );
    ctx.status = 429;
    ctx.set('Retry-After', String(check.retryAfterSeconds));
    ctx.type = 'html';
    ctx.body = settings.pages.page(
      t('title'),
      `<h1>${escapeHtml(t('heading'))}</h1><p role="alert" class="alert">${escapeHtml(t('throttled', { wait }))}</p><a class="button" href="${escapeHtml(path)}">${escapeHtml(t('continue'))}</a>`,
      locale,
    );
  });
}

/** The pages' settings for the throttle's refusal, which answers before the provider's configuration is reached. */
export function devicePageSettings(brand: Brand, defaultLocale: Locale = 'en'): PageSettings {
  return { pages: providerPages(brand), brandName: brand.name, defaultLocale };
}
