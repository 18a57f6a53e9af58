/**
 * The provider's mount behind Next's route handlers (app/oauth, app/.well-known):
 * under `next dev` and plain `next start` (`npm start` serves the provider ahead
 * of Next instead, ./node.ts). A transport only: every request goes through
 * ./next-bridge.ts into the provider's own chain, where every extension lives
 * (lib/oidc/extensions/). Each request is observed as on the other mount
 * (lib/ops/request-observer.ts: counted, timed, logged, served within its span
 * with tracing on) until the provider's headers are ready; its body streams after. (Next's own pages get no request line nor span under
 * `next start`: Next offers no hook that sees their status; `npm start` logs them.)
 */
import 'server-only';
import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../context.ts';
import { observeRequest } from '../../ops/request-observer.ts';
import type { RequestFacts } from '../request-facts.ts';
import { serverErrorResponse } from '../server-errors.ts';
import { metricRoute, providerHttpRoute } from './metric-routes.ts';
import { callProvider } from './next-bridge.ts';

export async function handleProviderRequest(ctx: AppContext, request: Request): Promise<Response> {
  const requestId = randomUUID();
  const { pathname } = new URL(request.url);
  const route = metricRoute(pathname);
  const observed = observeRequest(ctx.log, {
    requestId,
    method: request.method,
    route,
    spanRoute: providerHttpRoute(pathname),
    traceparent: request.headers.get('traceparent'),
    tracestate: request.headers.get('tracestate'),
    count: ctx.metrics.providerRequest(route),
  });
  const facts: RequestFacts = {};
  const response = await observed.run(async (): Promise<Response> => {
    try {
      return await callProvider(await ctx.provider(), request, { issuer: new URL(ctx.config.ISSUER), requestId, facts });
    } catch (error) {
      return serverErrorResponse(ctx.log, requestId, error);
    }
  });
  observed.end(response.status, { clientId: facts.clientId });
  return response;
}
