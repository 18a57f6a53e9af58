/**
 * The provider's mount behind Next's route handlers (app/oauth, app/.well-known):
 * under `next dev` and plain `next start` (`npm start` serves the provider ahead
 * of Next instead, ./node.ts). A transport only: every request goes through
 * ./next-bridge.ts into the provider's own chain, where every extension lives
 * (lib/oidc/extensions/).
 */
import 'server-only';
import { randomUUID } from 'node:crypto';
import { env } from '../../config/env.ts';
import { getProvider } from '../provider.ts';
import { serverErrorResponse } from '../server-errors.ts';
import { callProvider } from './next-bridge.ts';

export async function handleProviderRequest(request: Request): Promise<Response> {
  const requestId = randomUUID();
  try {
    return await callProvider(await getProvider(), request, { issuer: new URL(env().ISSUER), requestId });
  } catch (error) {
    return serverErrorResponse(requestId, error);
  }
}
