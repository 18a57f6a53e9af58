/**
 * The provider's mount behind Next's route handlers (app/oauth, app/.well-known):
 * under `next dev` and plain `next start` (`npm start` serves the provider ahead
 * of Next instead, ./node.ts). A transport only: every request goes through
 * ./next-bridge.ts into the provider's own chain, where every extension lives
 * (lib/oidc/extensions/).
 */
import 'server-only';
import { randomUUID } from 'node:crypto';
import { serverContext } from '../../context.ts';
import { serverErrorResponse } from '../server-errors.ts';
import { callProvider } from './next-bridge.ts';

export async function handleProviderRequest(request: Request): Promise<Response> {
  const requestId = randomUUID();
  try {
    const ctx = serverContext();
    return await callProvider(await ctx.provider(), request, { issuer: new URL(ctx.config.ISSUER), requestId });
  } catch (error) {
    return serverErrorResponse(requestId, error);
  }
}
