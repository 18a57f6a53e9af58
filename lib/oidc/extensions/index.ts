/**
 * Everything Gatehouse adds to oidc-provider, as middleware in its own Koa chain,
 * so both mounts (lib/oidc/mounts/) only carry bytes between their transport and
 * the provider. In the order a request meets them, before the provider's routes.
 */
import type Provider from 'oidc-provider';
import type { Brand } from '../../config/brand.ts';
import type { ErrorLog } from '../server-errors.ts';
import { useAuthorizationPostOverHttp } from './authorization-post.ts';
import { useBearerIntrospection } from './bearer-introspection.ts';
import { useBodyLimit } from './body-limit.ts';
import { useErrorConventions } from './error-conventions.ts';
import { useRequestFacts } from './request-client.ts';
import { useSecurityHeaders } from './provider-headers.ts';

export function useExtensions(provider: Provider, brand: Brand, log: ErrorLog): void {
  useRequestFacts(provider); // first: on the way out it reads what every step below found
  useSecurityHeaders(provider, brand); // on every answer below, the refusals included
  useBodyLimit(provider); // 413 before any body is read, ours included
  useErrorConventions(provider); // corrects the provider's answers on the way out
  useAuthorizationPostOverHttp(provider);
  useBearerIntrospection(provider, log);
}
