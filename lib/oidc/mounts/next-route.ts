/**
 * The provider's mount behind Next's route handlers (app/oauth, app/.well-known):
 * under `next dev` and plain `next start` (`npm start` serves the provider ahead
 * of Next instead, ./node.ts). A transport only: every request goes through
 * ./next-bridge.ts into the provider's own chain, where every extension lives
 * (lib/oidc/extensions/). Each request is counted and timed (lib/ops/metrics.ts)
 * until the provider's headers are ready; its body streams after.
 */
import 'server-only';
import { randomUUID } from 'node:crypto';
import { serverContext } from '../../context.ts';
import { serverErrorResponse } from '../server-errors.ts';
import { metricRoute } from './metric-routes.ts';
import { callProvider } from './next-bridge.ts';

export async function handleProviderRequest(request: Request): Promise<Response> {
  const requestId = randomUUID();
  const ctx = serverContext();
  const done = ctx.metrics.providerRequest(metricRoute(new URL(request.url).pathname));
  let response: Response;
  try {
    response = await callProvider(await ctx.provider(), request, { issuer: new URL(ctx.config.ISSUER), requestId });
  } catch (error) {
    response = serverErrorResponse(requestId, error);
  }
  done(response.status);
  return response;
}
