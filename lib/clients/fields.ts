/**
 * What an admin registers of a client: every surface edits these and nothing
 * else, and the audit log names the ones a change touched. No imports: the
 * portal's form (a client component) reads the list too, and must not pull the
 * server's modules into the browser.
 */

/** As stored, in the order the portal's form shows them. */
export const registrationFields = [
  'name',
  'redirectUris',
  'postLogoutRedirectUris',
  'grantTypes',
  'scope',
  'tokenEndpointAuthMethod',
  'logoUri',
  'firstParty',
  'resourceServer',
  'adminApi',
  'idTokenSignedResponseAlg',
  'requireSecondFactor',
  'backchannelLogoutUri',
  'backchannelLogoutSessionRequired',
  'requirePushedAuthorizationRequests',
  'requestObjectSigningAlg',
  'jwks',
  'dpopBoundAccessTokens',
  'subjectType',
  'sectorIdentifierUri',
] as const;

type InputName<F> = F extends 'scope' ? 'scopes' : F;

/**
 * The same in the registration schema's names (newClientSchema): the type is
 * chosen after the name (stored as whether there is a secret), the scopes are a list.
 */
export const clientInputFields = registrationFields.flatMap((field) =>
  field === 'name' ? (['name', 'type'] as const) : [field === 'scope' ? 'scopes' : field],
) as Array<InputName<(typeof registrationFields)[number]> | 'type'>;
