/**
 * The provider's mount behind Next's route handlers (app/oauth, app/.well-known):
 * under `next dev` and plain `next start` (`npm start` serves the provider ahead
 * of Next instead, ./node.ts). A transport only: every request goes through
 * ./next-bridge.ts into the provider's own chain, where every extension lives
 * (lib/oidc/extensions/). Each request is counted and timed (lib/ops/metrics.ts)
 * and logged (lib/ops/request-log.ts) when the provider's headers are ready; its
 * body streams after. (Next's own pages get no request line under `next start`:
 * Next offers no hook that sees their status; `npm start` logs them.)
 */
import 'server-only';
import { randomUUID } from 'node:crypto';
import { serverContext } from '../../context.ts';
import { logRequest } from '../../ops/request-log.ts';
import type { RequestFacts } from '../request-facts.ts';
import { serverErrorResponse } from '../server-errors.ts';
import { metricRoute } from './metric-routes.ts';
import { callProvider } from './next-bridge.ts';

export async function handleProviderRequest(request: Request): Promise<Response> {
  const started = performance.now();
  const requestId = randomUUID();
  const ctx = serverContext();
  const route = metricRoute(new URL(request.url).pathname);
  const done = ctx.metrics.providerRequest(route);
  const facts: RequestFacts = {};
  let response: Response;
  try {
    response = await callProvider(await ctx.provider(), request, { issuer: new URL(ctx.config.ISSUER), requestId, facts });
  } catch (error) {
    response = serverErrorResponse(ctx.log, requestId, error);
  }
  done(response.status);
  logRequest(ctx.log, { requestId, method: request.method, route, status: response.status, durationMs: performance.now() - started, clientId: facts.clientId });
  return response;
}
