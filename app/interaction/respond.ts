// The interaction forms' POST handler: a use case's outcome turned into the 303 the browser follows.
import { brand } from '@/lib/config/brand';
import { env } from '@/lib/config/env';
import { BODY_LIMITS } from '@/lib/http/body-limits';
import { translator } from '@/lib/i18n/messages';
import { requestLocale } from '@/lib/surfaces/locale';
import { readFormBody } from '@/lib/oidc/form-body';
import { escapeHtml, providerPages } from '@/lib/oidc/html';
import { type AppContext, serverContext } from '@/lib/context';
import type { InteractionOutcome } from '@/lib/sign-in/interactions';
import { requestContext, type RequestContext } from '@/lib/platform/request-context';

/**
 * Form posts to /interaction/* must come from our own pages. The signed,
 * SameSite=Lax interaction cookie already stops cross-site posts; checking
 * Origin is the second lock. Browsers send it on every form post (our pages'
 * Referrer-Policy, same-origin, keeps it from being `null`), so a post without
 * one did not come from a page of ours either.
 */
function isSameOrigin(request: Request): boolean {
  return request.headers.get('origin') === new URL(env().ISSUER).origin;
}

function respond(uid: string, next: InteractionOutcome, form: FormData): Response {
  const location = 'redirect' in next ? next.redirect : new URL(`/interaction/${encodeURIComponent(uid)}?${errorQuery(next, form)}`, env().ISSUER).toString();
  return new Response(null, { status: 303, headers: { location, 'cache-control': 'no-store' } });
}

/** A hidden field of the form (components/interaction/request-fields.tsx), bounded. */
const requestField = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === 'string' && value.length <= 2000 ? value : undefined;
};

/**
 * The refusal as the page reads it back: its code, for a throttled attempt when the next is taken,
 * and for an expired request where it came from (the form's hidden fields), so that the page can
 * link back to the application once it has checked them against the registration.
 */
function errorQuery(next: Exclude<InteractionOutcome, { redirect: string }>, form: FormData): string {
  const query = new URLSearchParams({ error: next.error });
  if (next.error === 'throttled') query.set('retry_after', String(next.retryAfterSeconds));
  if (next.error === 'expired') {
    for (const name of ['client_id', 'redirect_uri']) {
      const value = requestField(form, name);
      if (value) query.set(name, value);
    }
  }
  return query.toString();
}

/**
 * The 403 a person sees for a post from elsewhere: a page in their language saying what happened,
 * with the way back to the sign-in page (a GET, which changes nothing). The provider's plain page
 * layout (lib/oidc/html.ts); its one inline style carries the nonce of the policy proxy.ts gave this
 * request, which is the one the answer carries.
 */
async function foreignPost(request: Request, uid: string): Promise<Response> {
  const locale = await requestLocale();
  const t = translator(locale, 'interaction.foreignPost');
  const { name } = brand();
  const title = t('title', { brand: name });
  const back = `/interaction/${encodeURIComponent(uid)}`;
  const body = `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(t('body', { brand: name }))}</p><a class="button" href="${escapeHtml(back)}">${escapeHtml(t('back'))}</a>`;
  const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(request.headers.get('content-security-policy') ?? '')?.[1];
  const page = providerPages(brand()).page(title, body, locale);
  return new Response(nonce ? page.replace('<style>', `<style nonce="${nonce}">`) : page, {
    status: 403,
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
  });
}

/**
 * The form, read before anything else looks at the interaction: at most what the
 * sign-in form needs (413 beyond), urlencoded as our pages send it (400 otherwise).
 * Consent and Deny send no fields, but their bodies are bounded the same way.
 */
async function formOf(request: Request, limit: number): Promise<FormData | Response> {
  const params = await readFormBody(request, limit);
  if (params instanceof Response) return params;
  const form = new FormData();
  for (const [name, value] of params) form.append(name, value);
  return form;
}

/** One step of the interaction (a use case of lib/sign-in/interactions.ts), given the provider's cookies. */
type Step = (ctx: AppContext, uid: string, cookie: string | null, context: RequestContext, form: FormData) => Promise<InteractionOutcome>;

/**
 * The POST handler of the form of one step: same origin only (a 403 page otherwise), the form read
 * (at most `limit` bytes), the step run, its outcome answered as a 303.
 * `afterError` may add to the answer of a refused step.
 */
export function interactionForm(
  step: Step,
  { afterError, limit = BODY_LIMITS.interactionForm }: { afterError?: (response: Response, uid: string, form: FormData) => void; limit?: number } = {},
) {
  return async (request: Request, { params }: { params: Promise<{ uid: string }> }): Promise<Response> => {
    const { uid } = await params;
    if (!isSameOrigin(request)) return foreignPost(request, uid);
    const form = await formOf(request, limit);
    if (form instanceof Response) return form;
    const next = await step(serverContext(), uid, request.headers.get('cookie'), requestContext(request.headers), form);
    const response = respond(uid, next, form);
    if ('error' in next) afterError?.(response, uid, form);
    else for (const cookie of next.cookies ?? []) response.headers.append('set-cookie', cookie);
    return response;
  };
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
