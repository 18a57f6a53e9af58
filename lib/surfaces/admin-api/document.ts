/** GET /api/admin/openapi.json: the document, built once per process from the operations table. */
import 'server-only';
import { env } from '../../config/env.ts';
import { openApiDocument } from './openapi.ts';
import { operations } from './operations.ts';
import { endpoint } from './route.ts';

let built: ReturnType<typeof openApiDocument> | undefined;

export const getOpenApiDocument = endpoint(operations.getOpenApiDocument, async () => (built ??= openApiDocument(env().ISSUER)));
