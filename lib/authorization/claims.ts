/**
 * The `groups` and `roles` scopes and claims: a person's groups and roles by name, in the
 * ID token, at userinfo, and in the JWT access tokens of APIs that ask for them. Off until the
 * operator turns them on (GROUPS_ROLES_CLAIMS=on): discovery then lists both scopes and both
 * claims, and a client gets them only when it asks for the scope (and may be allowed it).
 * No module of oidc-provider here, so the CLI and the use cases can name the scopes.
 */

/** The scopes, each releasing the claim of the same name (as Keycloak, Zitadel and Dex name them). */
export const AUTHORIZATION_SCOPES = ['groups', 'roles'] as const;

export type AuthorizationScope = (typeof AUTHORIZATION_SCOPES)[number];

/** The provider's `claims` entries for the two scopes. */
export const authorizationClaims = { groups: ['groups'], roles: ['roles'] } as const;

/** Whether a space-separated scope (or set) asks for a person's groups or roles. */
export function asksForAccess(scope: string | Iterable<string> | undefined): boolean {
  if (!scope) return false;
  const scopes = typeof scope === 'string' ? scope.split(' ') : [...scope];
  return scopes.some((value) => (AUTHORIZATION_SCOPES as readonly string[]).includes(value));
}
