// Readiness: provider and keys loaded, database answering, migrations applied (lib/ops/health.ts). `npm start` answers it ahead of Next; this is plain `next start`'s.
import { serverContext } from '@/lib/context';
import { healthResponse } from '@/lib/ops/health';

export const dynamic = 'force-dynamic';

const answer = (request: Request) => healthResponse(request, '/readyz', serverContext().readiness);
export { answer as GET, answer as HEAD };
