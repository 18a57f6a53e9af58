/**
 * The places where oidc-provider's answers fall short of "every error is JSON in
 * the RFC's words, every 401 names a scheme", corrected on the way out.
 */
import type Provider from 'oidc-provider';
import { serverErrorDescription, serverErrorFormPost, serverErrorRedirect } from '../server-errors.ts';

interface ErrorBody {
  error?: string;
  error_description?: string;
}

/**
 * oidc-provider answers a few conditions with invalid_request where RFC 6749
 * §5.2 names a more precise code. Matched on the provider's own description
 * (pinned version; the protocol tests fail loudly if a description changes).
 */
const rfcCodes: Record<string, { status: number; error: string; description: string; challenge?: boolean }> = {
  // "Client authentication failed (e.g., ... no client authentication included)": invalid_client, 401.
  'no client authentication mechanism provided': { status: 401, error: 'invalid_client', description: 'client authentication is required', challenge: true },
  // "The authenticated client is not authorized to use this authorization grant type."
  'requested grant type is not allowed for this client': {
    status: 400,
    error: 'unauthorized_client',
    description: 'the client is not registered for this grant type',
  },
  // The device authorization endpoint (RFC 8628 §3.2 answers with RFC 6749 §5.2's codes) for a client without the grant.
  'urn:ietf:params:oauth:grant-type:device_code is not allowed for this client': {
    status: 400,
    error: 'unauthorized_client',
    description: 'the client is not registered for the device code grant',
  },
};

export function useErrorConventions(provider: Provider): void {
  provider.use(async (ctx, next) => {
    await next();
    // oidc-provider answers every CORS preflight by echoing the Origin, before
    // clientBasedCORS can judge it (that runs on the request itself). An opaque
    // origin ("null": sandboxed frames, file: pages) is never one a client
    // registered (lib/oidc/configuration.ts), so it is never allowed.
    if (ctx.response.get('Access-Control-Allow-Origin') === 'null') ctx.remove('Access-Control-Allow-Origin');
    // RFC 9110 §15.5.2: every 401 names a scheme. The provider adds one only when
    // the client used the Authorization header; credentials in the body get Basic too.
    if (ctx.status === 401 && !ctx.response.get('WWW-Authenticate')) ctx.set('WWW-Authenticate', `Basic realm="${provider.issuer}"`);
    // Koa answers unmatched routes with a plain-text "Not Found".
    if (ctx.status === 404 && (ctx.body === undefined || ctx.body === null)) {
      ctx.body = { error: 'invalid_request', error_description: 'unrecognized route or not allowed method' };
      ctx.status = 404;
      return;
    }
    const body = ctx.body as ErrorBody | undefined;
    // The provider says "oops! something went wrong" (its helpers/err_out.js): say what the admin API says,
    // the request id the error was logged with (lib/oidc/provider.ts), for a report to name; in a JSON
    // answer, and in what the authorization endpoint sends back to the client.
    const requestId = ctx.get('x-request-id');
    if (requestId && ctx.status >= 500 && body?.error === 'server_error') {
      ctx.body = { ...body, error_description: serverErrorDescription(requestId) };
      return;
    }
    const redirect = requestId && ctx.status >= 300 && ctx.status < 400 ? serverErrorRedirect(ctx.response.get('Location'), requestId) : undefined;
    if (redirect) {
      ctx.redirect(redirect); // keeps the status, and says the new address in the body too
      return;
    }
    const formPost = requestId && typeof ctx.body === 'string' ? serverErrorFormPost(ctx.body, requestId) : undefined;
    if (formPost) {
      ctx.body = formPost;
      return;
    }
    const remap = ctx.status === 400 && body?.error === 'invalid_request' ? rfcCodes[body.error_description ?? ''] : undefined;
    if (remap) {
      ctx.body = { error: remap.error, error_description: remap.description };
      ctx.status = remap.status;
      if (remap.challenge) ctx.set('WWW-Authenticate', `Basic realm="${provider.issuer}"`);
    }
  });
}
