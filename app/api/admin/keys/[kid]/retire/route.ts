// The admin JSON API (lib/services/admin-api): each export authorizes and validates itself.
import { adminRoute } from '@/lib/services/admin-api/route';
import { retireSigningKey } from '@/lib/services/admin-api/keys';

export const dynamic = 'force-dynamic';

export const POST = adminRoute(retireSigningKey);
