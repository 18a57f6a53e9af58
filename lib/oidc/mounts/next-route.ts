/**
 * The provider's mount behind Next's route handlers (app/oauth, app/.well-known):
 * under `next dev` and plain `next start` (`npm start` serves the provider ahead
 * of Next instead, ./node.ts). A transport only: every request goes through
 * ./next-bridge.ts into the provider's own chain, where every extension lives
 * (lib/oidc/extensions/). Each request is counted and timed (lib/ops/metrics.ts)
 * and logged (lib/ops/request-log.ts) when the provider's headers are ready; its
 * body streams after; with tracing on it runs in a server span (lib/ops/tracing.ts)
 * that ends then too. (Next's own pages get no request line nor span under
 * `next start`: Next offers no hook that sees their status; `npm start` logs them.)
 */
import 'server-only';
import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../context.ts';
import { logRequest } from '../../ops/request-log.ts';
import { tracing } from '../../ops/tracing.ts';
import type { RequestFacts } from '../request-facts.ts';
import { serverErrorResponse } from '../server-errors.ts';
import { metricRoute, providerHttpRoute } from './metric-routes.ts';
import { callProvider } from './next-bridge.ts';

export async function handleProviderRequest(ctx: AppContext, request: Request): Promise<Response> {
  const started = performance.now();
  const requestId = randomUUID();
  const { pathname } = new URL(request.url);
  const route = metricRoute(pathname);
  const done = ctx.metrics.providerRequest(route);
  const span = tracing()?.requestSpan({
    method: request.method,
    route: providerHttpRoute(pathname),
    traceparent: request.headers.get('traceparent'),
    tracestate: request.headers.get('tracestate'),
  });
  const facts: RequestFacts = {};
  const answer = async (): Promise<Response> => {
    try {
      return await callProvider(await ctx.provider(), request, { issuer: new URL(ctx.config.ISSUER), requestId, facts });
    } catch (error) {
      return serverErrorResponse(ctx.log, requestId, error);
    }
  };
  const response = await (span ? span.run(answer) : answer());
  done(response.status);
  span?.end({ status: response.status, requestId, clientId: facts.clientId });
  logRequest(ctx.log, {
    requestId,
    method: request.method,
    route,
    status: response.status,
    durationMs: performance.now() - started,
    clientId: facts.clientId,
    span,
  });
  return response;
}
