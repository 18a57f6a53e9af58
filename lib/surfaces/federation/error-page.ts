/** What /federation/error shows: the reason (a known one, else state_invalid) and the application to go back to, when known and safe. */
import 'server-only';
import { serverContext } from '../../context.ts';
import { isFederationFailureReason, type FederationFailureReason } from '../../federation/errors.ts';
import { interactionParams, returnLink } from '../../oidc/interaction.ts';

export async function federationErrorPage(reason: unknown, uid: unknown): Promise<{ reason: FederationFailureReason; app?: { name: string; href: string } }> {
  const known = isFederationFailureReason(reason) ? reason : 'state_invalid';
  if (typeof uid !== 'string' || uid.length > 200) return { reason: known };
  const ctx = serverContext();
  const params = await interactionParams(ctx, uid);
  const app = params ? await returnLink(ctx, params.client_id, params.redirect_uri) : undefined;
  return app ? { reason: known, app } : { reason: known };
}
