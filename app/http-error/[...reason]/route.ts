// Where lib/http/body-limits.ts's rewrites send a body too large for its route
// (/http-error/413/<limit>) or of unannounced size (/http-error/411), before any
// reader sees it: the answer, and nothing read.
import { refusedBody } from '@/lib/http/refused';

export const dynamic = 'force-dynamic';

export { refusedBody as GET, refusedBody as POST, refusedBody as PUT, refusedBody as PATCH, refusedBody as DELETE };
