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

/** Paths under the endpoints above that oidc-provider serves as they are (the logout's confirm form and its success page). */
const fixed = new Set([`${routes.end_session}/confirm`, `${routes.end_session}/success`]);

/**
 * The route a trace names a provider request by (lib/ops/tracing.ts, OpenTelemetry's
 * `http.route`): the endpoint's path, `/oauth/authorize/:uid` for the resume URL, or
 * undefined for a path that is no endpoint, so that no made-up path names a span.
 */
export function providerHttpRoute(pathname: string): string | undefined {
  if (exact.has(pathname) || fixed.has(pathname)) return pathname;
  if (pathname.startsWith(`${routes.authorization}/`)) return `${routes.authorization}/:uid`;
  return undefined;
}
