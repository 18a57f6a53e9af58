// The admin JSON API (lib/services/admin-api): each export authorizes and validates itself.
import { adminRoute } from '@/lib/services/admin-api/route';
import { listAuditEvents } from '@/lib/services/admin-api/audit';

export const dynamic = 'force-dynamic';

export const GET = adminRoute(listAuditEvents);
