// The admin JSON API (lib/services/admin-api): each export authorizes and validates itself.
import { adminRoute } from '@/lib/services/admin-api/route';
import { deleteClient, getClient, updateClient } from '@/lib/services/admin-api/clients';

export const dynamic = 'force-dynamic';

export const GET = adminRoute(getClient);
export const PATCH = adminRoute(updateClient);
export const DELETE = adminRoute(deleteClient);
