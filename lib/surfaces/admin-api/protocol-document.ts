/** GET /api/protocol/openapi.json: the protocol's document, built once per process from the instance's settings. */
import 'server-only';
import { env } from '../../config/env.ts';
import { protocolFeaturesOf } from '../../oidc/protocol-features.ts';
import { protocolOpenApiDocument } from './protocol-openapi.ts';

let built: string | undefined;

export async function protocolDocument(): Promise<Response> {
  const config = env();
  built ??= JSON.stringify(protocolOpenApiDocument({ issuer: config.ISSUER, features: protocolFeaturesOf(config), registration: config.DYNAMIC_REGISTRATION }));
  return new Response(built, { headers: { 'content-type': 'application/json', 'cache-control': 'public, max-age=300' } });
}
