/**
 * `gatehouse client ...`: register, list, update, delete, disable and enable OAuth clients.
 * The services module is imported when a command runs, not when this file
 * loads: it pulls in oidc-provider, which --help and usage errors do not need.
 */
import { z } from 'zod';
import { BY_CLI } from '../../lib/audit/log.ts';
import type { NewClientInput } from '../../lib/clients/manage.ts';
import { Forbidden, InvalidRequest, NotFound, parseInput } from '../../lib/platform/errors.ts';
import { clientToWire, clientType, registrationOf } from '../../lib/clients/wire.ts';
import { parseCommand, positionals, type Command } from '../args.ts';
import { table } from '../output.ts';

const services = () => import('../../lib/clients/manage.ts');

/** The registration's flags, shared by create and update (create adds --public, update the --no- forms). */
const settingOptions = {
  name: { type: 'string' },
  'redirect-uri': { type: 'string', multiple: true },
  'post-logout-redirect-uri': { type: 'string', multiple: true },
  'grant-type': { type: 'string', multiple: true },
  scope: { type: 'string', multiple: true },
  scopes: { type: 'string' },
  'auth-method': { type: 'string' },
  'first-party': { type: 'boolean' },
  'resource-server': { type: 'boolean' },
  'admin-api': { type: 'boolean' },
  'require-second-factor': { type: 'boolean' },
  'backchannel-logout-uri': { type: 'string' },
  'backchannel-logout-session-required': { type: 'boolean' },
  'logo-uri': { type: 'string' },
  'id-token-alg': { type: 'string' },
  'require-par': { type: 'boolean' },
  'request-object-alg': { type: 'string' },
  jwks: { type: 'string' },
  dpop: { type: 'boolean' },
  'subject-type': { type: 'string' },
  'sector-identifier-uri': { type: 'string' },
  'admin-role': { type: 'string' },
} as const;

/** What an update can switch off or empty, as `--no-<flag>`. */
const negatable = [
  'redirect-uri',
  'post-logout-redirect-uri',
  'logo-uri',
  'first-party',
  'resource-server',
  'admin-api',
  'require-second-factor',
  'backchannel-logout-uri',
  'backchannel-logout-session-required',
  'require-par',
  'request-object-alg',
  'jwks',
  'dpop',
  'sector-identifier-uri',
] as const;
type Negatable = (typeof negatable)[number];
const negations = Object.fromEntries(negatable.map((flag) => [`no-${flag}`, { type: 'boolean' }])) as Record<`no-${Negatable}`, { type: 'boolean' }>;

type SettingValues = {
  [F in keyof typeof settingOptions]?: (typeof settingOptions)[F] extends { multiple: true }
    ? string[]
    : (typeof settingOptions)[F]['type'] extends 'string'
      ? string
      : boolean;
} & { [F in `no-${Negatable}`]?: boolean };

/** Schema field -> flag, so validation errors name what the user typed. */
const settingFields = {
  name: '--name',
  redirectUris: '--redirect-uri',
  postLogoutRedirectUris: '--post-logout-redirect-uri',
  grantTypes: '--grant-type',
  scopes: '--scope',
  tokenEndpointAuthMethod: '--auth-method',
  logoUri: '--logo-uri',
  idTokenSignedResponseAlg: '--id-token-alg',
  adminRole: '--admin-role',
  firstParty: '--first-party',
  resourceServer: '--resource-server',
  adminApi: '--admin-api',
  requireSecondFactor: '--require-second-factor',
  backchannelLogoutUri: '--backchannel-logout-uri',
  backchannelLogoutSessionRequired: '--backchannel-logout-session-required',
  requirePushedAuthorizationRequests: '--require-par',
  requestObjectSigningAlg: '--request-object-alg',
  jwks: '--jwks',
  dpopBoundAccessTokens: '--dpop',
  subjectType: '--subject-type',
  sectorIdentifierUri: '--sector-identifier-uri',
};

/**
 * The settings the flags give, undefined where a flag is absent: `--no-<flag>`
 * stands for false, an empty list or no logo. A flag given both ways is refused
 * rather than resolved by order.
 */
function settingsOf(command: string, values: SettingValues): Omit<NewClientInput, 'name' | 'type'> & { name?: string } {
  const either = <T>(flag: Negatable, given: T | undefined, none: T): T | undefined => {
    if (given !== undefined && values[`no-${flag}`]) throw new InvalidRequest(`${command}: choose one of --${flag} and --no-${flag}`);
    return values[`no-${flag}`] ? none : given;
  };
  const scopes = [...(values.scope ?? []), ...(values.scopes?.split(/\s+/).filter(Boolean) ?? [])];
  return {
    name: values.name,
    redirectUris: either('redirect-uri', values['redirect-uri'], []),
    postLogoutRedirectUris: either('post-logout-redirect-uri', values['post-logout-redirect-uri'], []),
    grantTypes: values['grant-type'] as NewClientInput['grantTypes'],
    scopes: scopes.length ? (scopes as NewClientInput['scopes']) : undefined,
    tokenEndpointAuthMethod: values['auth-method'] as NewClientInput['tokenEndpointAuthMethod'],
    logoUri: either('logo-uri', values['logo-uri'], null),
    firstParty: either('first-party', values['first-party'], false),
    resourceServer: either('resource-server', values['resource-server'], false),
    adminApi: either('admin-api', values['admin-api'], false),
    requireSecondFactor: either('require-second-factor', values['require-second-factor'], false),
    backchannelLogoutUri: either('backchannel-logout-uri', values['backchannel-logout-uri'], null),
    backchannelLogoutSessionRequired: either('backchannel-logout-session-required', values['backchannel-logout-session-required'], false),
    idTokenSignedResponseAlg: values['id-token-alg'] as NewClientInput['idTokenSignedResponseAlg'],
    requirePushedAuthorizationRequests: either('require-par', values['require-par'], false),
    requestObjectSigningAlg: either('request-object-alg', values['request-object-alg'], null) as NewClientInput['requestObjectSigningAlg'],
    jwks: either('jwks', values.jwks, null),
    dpopBoundAccessTokens: either('dpop', values.dpop, false),
    subjectType: values['subject-type'] as NewClientInput['subjectType'],
    sectorIdentifierUri: either('sector-identifier-uri', values['sector-identifier-uri'], null),
    adminRole: values['admin-role'] as NewClientInput['adminRole'],
  };
}

const create: Command = {
  summary: "register a client (a confidential client's secret is printed once)",
  help: `Usage: gatehouse client create --name NAME --redirect-uri URI [options]

Registers an OAuth 2.0 client. A confidential client's secret is printed once
and stored only as a hash: it cannot be shown again.

  --name NAME                     display name shown on the consent screen (required)
  --redirect-uri URI              exact redirect URI, repeatable; https, or http on
                                  localhost / 127.0.0.1 / [::1], or a private scheme (com.example.app:)
  --post-logout-redirect-uri URI  where logout may return to, repeatable
  --public                        public client (browser or native app): no secret, PKCE only
  --grant-type G                  authorization_code | refresh_token | client_credentials |
                                  urn:ietf:params:oauth:grant-type:device_code (RFC 8628), repeatable
                                  (default: authorization_code refresh_token)
  --scope S                       openid | profile | email | offline_access | introspect | admin, repeatable
  --scopes "S S ..."              the same, space-separated (default: openid profile email offline_access)
  --auth-method M                 client_secret_basic | client_secret_post | none
                                  (default: client_secret_basic; none for --public)
  --first-party                   your own application: never shows a consent screen
  --resource-server               an API that may introspect any token: confidential clients only;
                                  with --scope introspect, the client_credentials grant only
  --admin-api                     automation that may call /api/admin (with the admin scope and
                                  the client_credentials grant only)
  --admin-role R                  what an --admin-api client may do there: owner | admin |
                                  user_manager | auditor (default: admin; see the docs, Admin roles)
  --require-second-factor         every sign-in for it ends with a second factor (acr
                                  urn:gatehouse:acr:mfa); people without one cannot sign in to it
  --backchannel-logout-uri URI    where logout tokens go when a session it signed in through ends
                                  (OpenID Connect Back-Channel Logout; sent with BACKCHANNEL_LOGOUT=on)
  --backchannel-logout-session-required
                                  its logout tokens and ID tokens carry the session's sid
  --logo-uri URI                  https URL of a logo for the consent screen
  --id-token-alg ALG              ES256 | RS256: how its ID tokens are signed (default: ES256;
                                  RS256 for relying parties that accept only RS256,
                                  e.g. next-auth v4 without configuration)
  --require-par                   authorization requests only through /oauth/par (RFC 9126)
  --request-object-alg ALG        ES256 | PS256 | RS256 | EdDSA: every request object signed so (RFC 9101)
  --jwks JSON                     the client's public keys, a JWK Set: verifies its request objects
  --dpop                          tokens only with a DPoP proof (RFC 9449)
  --subject-type T                public | pairwise (a sub per sector, OIDC Core §8; default public)
  --sector-identifier-uri URI     pairwise: https URL answering a JSON list of the redirect URIs
  --json                          print JSON: client_id, client_secret (confidential only), metadata
`,
  fields: settingFields,
  async run(argv, ctx) {
    const { values, positionals: rest } = parseCommand('client create', argv, { ...settingOptions, public: { type: 'boolean' } });
    positionals('client create', rest, []);
    if (values.name === undefined) throw new InvalidRequest('client create: --name is required (see --help)');
    const input: NewClientInput = { ...settingsOf('client create', values), name: values.name, type: values.public ? 'public' : 'confidential' };
    const { newClientSchema, registerClient } = await services();
    parseInput(newClientSchema, input); // bad input fails here, before a database is opened or created
    const { client, clientSecret } = await registerClient(await ctx.db(), input, { by: BY_CLI });
    const lines = [
      `Created ${client.confidential ? 'confidential' : 'public'} client "${client.name}"`,
      `client_id:     ${client.id}`,
      ...(clientSecret ? [`client_secret: ${clientSecret}`] : []),
    ];
    return {
      json: { ...clientToWire(client), ...(clientSecret ? { client_secret: clientSecret } : {}) },
      text: lines.join('\n'),
      notice: clientSecret ? 'Store the client secret now: Gatehouse keeps only a hash of it and cannot show it again.' : undefined,
    };
  },
};

const list: Command = {
  summary: 'list clients (never their secrets)',
  help: `Usage: gatehouse client list [--json]

Lists registered clients. Secrets are stored only as hashes and never shown.
`,
  async run(argv, ctx) {
    const { positionals: rest } = parseCommand('client list', argv, {});
    positionals('client list', rest, []);
    const clients = await (await services()).listClients(await ctx.db());
    const rows = clients.map((c) => [c.id, c.name, clientType(c), c.enabled ? 'enabled' : 'disabled', c.idTokenSignedResponseAlg, c.redirectUris.join(' ')]);
    return {
      json: clients.map(clientToWire),
      text: table(['CLIENT ID', 'NAME', 'TYPE', 'STATUS', 'ID TOKEN ALG', 'REDIRECT URIS'], rows, 'No clients registered.'),
    };
  },
};

const update: Command = {
  summary: "change a client's settings (the ones not given keep their values)",
  help: `Usage: gatehouse client update <client_id> [options]

Changes a registered client through the same use case as the portal's edit
form and the admin API's PATCH, and records it in the audit log. Only the
options given change; the others keep their values. A repeatable option
replaces its whole list. Values are those of \`client create\` (see its --help).
The client type (confidential or public) and the secret stay (rotate it in the
portal or the admin API), and the admin portal's own client cannot be changed.
Bad input exits 2 and an unknown client 1; either way nothing changes.

  --name NAME                      display name shown on the consent screen
  --redirect-uri URI               exact redirect URI, repeatable: the new list
  --no-redirect-uri                no redirect URIs (a client without authorization_code)
  --post-logout-redirect-uri URI   where logout may return to, repeatable: the new list
  --no-post-logout-redirect-uri    no post-logout redirect URIs
  --grant-type G                   repeatable: the new list
  --scope S, --scopes "S S ..."    the new scopes
  --auth-method M                  client_secret_basic | client_secret_post (none for public clients)
  --[no-]first-party               never shows a consent screen, or shows it again
  --[no-]resource-server           may introspect any token
  --[no-]admin-api                 may call /api/admin
  --admin-role R                   owner | admin | user_manager | auditor: what it may do there
  --[no-]require-second-factor     every sign-in for it ends with a second factor
                                   (acr urn:gatehouse:acr:mfa), or only when it asks
  --backchannel-logout-uri URI, --no-backchannel-logout-uri
                                   where logout tokens go, or none
  --[no-]backchannel-logout-session-required
                                   its logout tokens and ID tokens carry the session's sid
  --logo-uri URI, --no-logo-uri    https URL of a logo for the consent screen, or none
  --id-token-alg ALG               ES256 | RS256
  --[no-]require-par               authorization requests only through /oauth/par
  --request-object-alg ALG, --no-request-object-alg   signed request objects, or none
  --jwks JSON, --no-jwks           the client's public keys (JWK Set), or none
  --[no-]dpop                      tokens only with a DPoP proof
  --subject-type T                 public | pairwise
  --sector-identifier-uri URI, --no-sector-identifier-uri
  --json                           print the client as JSON (never its secret)
`,
  fields: settingFields,
  async run(argv, ctx) {
    const { values, positionals: rest } = parseCommand('client update', argv, { ...settingOptions, ...negations });
    const [id] = positionals('client update', rest, ['client_id']);
    const { json: _json, ...given } = values;
    if (Object.keys(given).length === 0) throw new InvalidRequest('client update: nothing to change; give at least one option (see --help)');
    const changes = Object.fromEntries(Object.entries(settingsOf('client update', values)).filter(([, value]) => value !== undefined));
    const [{ findClient, newClientSchema, updateClient }, { PORTAL_CLIENT_ID }] = await Promise.all([services(), import('../../lib/clients/portal-client.ts')]);
    // Each given value alone fails here, before a database is opened; rules across fields are the use case's.
    parseInput(z.object(newClientSchema.shape).partial(), changes);
    const db = await ctx.db();
    const before = await findClient(db, id);
    if (!before) throw new NotFound(`no client with id ${id}`);
    if (id === PORTAL_CLIENT_ID) throw new Forbidden('Gatehouse manages this client itself (the admin portal signs in with it): it cannot be changed');
    // The client as it is, under the given fields: what the admin API's PATCH changes too.
    const after = await updateClient(db, id, { ...registrationOf(before), ...changes }, BY_CLI);
    const changed = changedSettings(clientToWire(before), clientToWire(after));
    return {
      json: clientToWire(after),
      text: changed.length ? `Updated client "${after.name}" (${id}): ${changed.join(', ')}` : `Client "${after.name}" (${id}) already had these settings.`,
    };
  },
};

/** The wire names of the settings that differ, as `client list --json` prints them. */
function changedSettings(before: ReturnType<typeof clientToWire>, after: ReturnType<typeof clientToWire>): string[] {
  const { updated_at: _a, ...was } = before;
  const { updated_at: _b, ...now } = after;
  return Object.keys(now).filter((key) => JSON.stringify(was[key as keyof typeof was]) !== JSON.stringify(now[key as keyof typeof now]));
}

const remove: Command = {
  summary: 'delete a client and revoke everything issued to it',
  help: `Usage: gatehouse client delete <client_id> [--json]

Deletes a client and revokes its tokens, codes and grants. Exits 1 if there is no such client.
`,
  async run(argv, ctx) {
    const { positionals: rest } = parseCommand('client delete', argv, {});
    const [id] = positionals('client delete', rest, ['client_id']);
    if (!(await (await services()).deleteClient(await ctx.db(), id, BY_CLI))) throw new NotFound(`no client with id ${id}`);
    return { json: { client_id: id, deleted: true }, text: `Deleted client ${id}; its tokens and grants are revoked.` };
  },
};

const disable: Command = {
  summary: 'disable a client and revoke everything issued to it',
  help: `Usage: gatehouse client disable <client_id> [--json]

Disables a client: the provider treats it as unknown, and its tokens, codes and
grants are revoked. The registration is kept. Exits 1 if there is no such client.
`,
  async run(argv, ctx) {
    const { positionals: rest } = parseCommand('client disable', argv, {});
    const [id] = positionals('client disable', rest, ['client_id']);
    if (!(await (await services()).disableClient(await ctx.db(), id, BY_CLI))) throw new NotFound(`no client with id ${id}`);
    return { json: { client_id: id, enabled: false }, text: `Disabled client ${id}; its tokens and grants are revoked.` };
  },
};

const enable: Command = {
  summary: 'enable a disabled client again',
  help: `Usage: gatehouse client enable <client_id> [--json]

Enables a client that was disabled: the provider knows it again, and it can
sign people in and get tokens anew. What its disabling revoked stays revoked.
Enabling an enabled client is no error. Exits 1 if there is no such client.
`,
  async run(argv, ctx) {
    const { positionals: rest } = parseCommand('client enable', argv, {});
    const [id] = positionals('client enable', rest, ['client_id']);
    if (!(await (await services()).enableClient(await ctx.db(), id, BY_CLI))) throw new NotFound(`no client with id ${id}`);
    return { json: { client_id: id, enabled: true }, text: `Enabled client ${id}.` };
  },
};

export const clientCommands: Record<string, Command> = { create, list, update, delete: remove, disable, enable };
