// GET /api/protocol/openapi.json: the protocol endpoints' OpenAPI document (lib/surfaces/admin-api/protocol-openapi.ts),
// public like discovery, which says the same; beside the admin API's at /api/admin/openapi.json.
import { protocolDocument } from '@/lib/surfaces/admin-api/protocol-document';

export const dynamic = 'force-dynamic';

export const GET = protocolDocument;
