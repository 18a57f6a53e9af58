/**
 * Which provider endpoint a request path is, as the request metrics name it
 * (lib/ops/metrics.ts): a closed list, never the path itself, whose every
 * variant (a uid, a typo, a probe for /oauth/wp-admin) would be a new series.
 */
import type { ProviderRoute } from '../../ops/metrics.ts';
import { routes } from '../configuration.ts';

const exact = new Map<string, ProviderRoute>([
  ['/.well-known/openid-configuration', 'discovery'],
  [routes.jwks, 'jwks'],
  [routes.authorization, 'authorization'],
  [routes.token, 'token'],
  [routes.userinfo, 'userinfo'],
  [routes.introspection, 'introspection'],
  [routes.revocation, 'revocation'],
  [routes.end_session, 'end_session'],
]);

export function metricRoute(pathname: string): ProviderRoute {
  const route = exact.get(pathname);
  if (route) return route;
  // The resume URL (/oauth/authorize/:uid) ends the same authorization request;
  // /oauth/logout/confirm and /success the same logout.
  if (pathname.startsWith(`${routes.authorization}/`)) return 'authorization';
  if (pathname.startsWith(`${routes.end_session}/`)) return 'end_session';
  return 'other';
}
