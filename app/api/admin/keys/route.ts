// The admin JSON API (lib/services/admin-api): each export authorizes and validates itself.
import { adminRoute } from '@/lib/services/admin-api/route';
import { listSigningKeys } from '@/lib/services/admin-api/keys';

export const dynamic = 'force-dynamic';

export const GET = adminRoute(listSigningKeys);
