/**
 * Notes which client a request was for (lib/oidc/request-facts.ts), for the
 * mount's request line: the client the provider authenticated or loaded (token,
 * introspection, revocation, userinfo, authorization), else the client_id the
 * request named in its parameters or in HTTP Basic authentication (RFC 6749
 * §2.3.1: the user-id part only; the password part is never decoded further).
 * First in the chain, so it reads what every later step found.
 */
import type Provider from 'oidc-provider';
import { requestFacts } from '../request-facts.ts';
import type { ProviderContext } from './provider-context.ts';

/** A client_id as logged: a request can name anything, at any length. */
const MAX_CLIENT_ID = 128;

export function useRequestFacts(provider: Provider): void {
  provider.use(async (ctx, next) => {
    try {
      await next();
    } finally {
      const clientId = clientIdOf(ctx);
      if (clientId) requestFacts(ctx.req).clientId = clientId.slice(0, MAX_CLIENT_ID);
    }
  });
}

function clientIdOf(ctx: ProviderContext): string | undefined {
  // ctx.oidc exists only on the provider's own routes.
  const oidc = ctx.oidc as { client?: { clientId?: unknown }; params?: { client_id?: unknown } } | undefined;
  const authenticated = oidc?.client?.clientId;
  if (typeof authenticated === 'string' && authenticated) return authenticated;
  const named = oidc?.params?.client_id;
  if (typeof named === 'string' && named) return named;
  return basicUserId(ctx.get('authorization'));
}

/** The client_id of `Authorization: Basic`, form-urlencoded before base64 (RFC 6749 §2.3.1). */
function basicUserId(header: string): string | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!match) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return undefined;
  try {
    return decodeURIComponent(decoded.slice(0, colon).replaceAll('+', ' '));
  } catch {
    return undefined;
  }
}
