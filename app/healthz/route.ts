// Liveness: the process answers (lib/ops/health.ts). `npm start` answers it ahead of Next; this is plain `next start`'s.
import { serverContext } from '@/lib/context';
import { healthResponse } from '@/lib/ops/health';

export const dynamic = 'force-dynamic';

const answer = (request: Request) => healthResponse(request, '/healthz', serverContext().readiness);
export { answer as GET, answer as HEAD };
