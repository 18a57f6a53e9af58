/** What the extensions share: the Koa context they run in, and a Fetch Response written into it. */
import type Provider from 'oidc-provider';

export type ProviderContext = Parameters<Parameters<Provider['use']>[0]>[0];

/**
 * Answers with a Response built by code that speaks Fetch (lib/oidc/introspection.ts,
 * lib/oidc/form-body.ts): its status, headers and body, nothing of Koa's defaults.
 * The headers set earlier in the chain (lib/oidc/extensions/provider-headers.ts) stay.
 */
export async function respondWith(ctx: ProviderContext, response: Response): Promise<void> {
  const body = Buffer.from(await response.arrayBuffer());
  ctx.status = response.status;
  ctx.body = body;
  ctx.remove('Content-Type'); // Koa's default for a Buffer; the Response names its own, if any
  response.headers.forEach((value, name) => {
    ctx.set(name, value);
  });
}
