// Any other path under /api/admin: authorized like the rest, then a JSON 404 (not an operation: not in the OpenAPI document).
import { unknownAdminPath } from '@/lib/surfaces/admin-api/route';

export const dynamic = 'force-dynamic';

export { unknownAdminPath as GET, unknownAdminPath as POST, unknownAdminPath as PUT, unknownAdminPath as PATCH, unknownAdminPath as DELETE };
