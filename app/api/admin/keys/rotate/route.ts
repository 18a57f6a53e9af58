// The admin JSON API (lib/services/admin-api): each export authorizes and validates itself.
import { adminRoute } from '@/lib/services/admin-api/route';
import { rotateSigningKeys } from '@/lib/services/admin-api/keys';

export const dynamic = 'force-dynamic';

export const POST = adminRoute(rotateSigningKeys);
