// GET /admin/sign-in: straight on to Gatehouse's sign-in, and back to ?callbackUrl (an /admin page by default).
import { startPortalSignIn } from '@/lib/surfaces/portal/sign-in';

export const dynamic = 'force-dynamic';

export const GET = (request: Request) => startPortalSignIn(request, '/admin');
