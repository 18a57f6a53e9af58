// GET /metrics on the issuer's port for the bearer of METRICS_TOKEN (lib/ops/metrics-server.ts); 404 without it.
// `npm start` answers it ahead of Next; this is plain `next start`'s.
import { serverContext } from '@/lib/context';
import { metricsResponse } from '@/lib/ops/metrics-server';

export const dynamic = 'force-dynamic';

const answer = (request: Request) => {
  const ctx = serverContext();
  return metricsResponse(request, ctx.metrics, ctx.config.METRICS_TOKEN, ctx.log);
};
export { answer as GET, answer as HEAD };
