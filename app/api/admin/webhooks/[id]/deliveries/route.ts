// The admin JSON API (lib/surfaces/admin-api): each handler authorizes and validates itself.
import { adminRoutes } from '@/lib/surfaces/admin-api/route';
import { listWebhookDeliveries } from '@/lib/surfaces/admin-api/webhooks';

export const dynamic = 'force-dynamic';

// Each endpoint under its operation's method; every other method is a 405 in the one error model.
export const { GET, POST, PUT, PATCH, DELETE } = adminRoutes(listWebhookDeliveries);
