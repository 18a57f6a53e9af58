/**
 * `gatehouse client ...`: register, list, delete and disable OAuth clients.
 * The services module is imported when a command runs, not when this file
 * loads: it pulls in oidc-provider, which --help and usage errors do not need.
 */
import { BY_CLI } from '../../lib/services/audit.ts';
import type { NewClientInput } from '../../lib/services/clients.ts';
import { InvalidRequest, NotFound, parseInput } from '../../lib/services/errors.ts';
import { clientToWire, clientType } from '../../lib/services/wire.ts';
import { parseCommand, positionals, type Command } from '../args.ts';
import { table } from '../output.ts';

const services = () => import('../../lib/services/clients.ts');

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
  --grant-type G                  authorization_code | refresh_token | client_credentials, repeatable
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
  --require-second-factor         every sign-in for it ends with a second factor (acr
                                  urn:gatehouse:acr:mfa); people without one cannot sign in to it
  --logo-uri URI                  https URL of a logo for the consent screen
  --id-token-alg ALG              ES256 | RS256: how its ID tokens are signed (default: ES256;
                                  RS256 for relying parties that accept only RS256,
                                  e.g. next-auth v4 without configuration)
  --json                          print JSON: client_id, client_secret (confidential only), metadata
`,
  fields: {
    name: '--name',
    redirectUris: '--redirect-uri',
    postLogoutRedirectUris: '--post-logout-redirect-uri',
    grantTypes: '--grant-type',
    scopes: '--scope',
    tokenEndpointAuthMethod: '--auth-method',
    logoUri: '--logo-uri',
    idTokenSignedResponseAlg: '--id-token-alg',
    resourceServer: '--resource-server',
    adminApi: '--admin-api',
    requireSecondFactor: '--require-second-factor',
  },
  async run(argv, ctx) {
    const { values, positionals: rest } = parseCommand('client create', argv, {
      name: { type: 'string' },
      'redirect-uri': { type: 'string', multiple: true },
      'post-logout-redirect-uri': { type: 'string', multiple: true },
      public: { type: 'boolean' },
      'grant-type': { type: 'string', multiple: true },
      scope: { type: 'string', multiple: true },
      scopes: { type: 'string' },
      'auth-method': { type: 'string' },
      'first-party': { type: 'boolean' },
      'resource-server': { type: 'boolean' },
      'admin-api': { type: 'boolean' },
      'require-second-factor': { type: 'boolean' },
      'logo-uri': { type: 'string' },
      'id-token-alg': { type: 'string' },
    });
    positionals('client create', rest, []);
    if (values.name === undefined) throw new InvalidRequest('client create: --name is required (see --help)');
    const scopes = [...(values.scope ?? []), ...(values.scopes?.split(/\s+/).filter(Boolean) ?? [])];
    const input: NewClientInput = {
      name: values.name,
      type: values.public ? 'public' : 'confidential',
      redirectUris: values['redirect-uri'],
      postLogoutRedirectUris: values['post-logout-redirect-uri'],
      grantTypes: values['grant-type'] as NewClientInput['grantTypes'],
      scopes: scopes.length ? (scopes as NewClientInput['scopes']) : undefined,
      tokenEndpointAuthMethod: values['auth-method'] as NewClientInput['tokenEndpointAuthMethod'],
      logoUri: values['logo-uri'],
      firstParty: values['first-party'] ?? false,
      resourceServer: values['resource-server'] ?? false,
      adminApi: values['admin-api'] ?? false,
      requireSecondFactor: values['require-second-factor'] ?? false,
      idTokenSignedResponseAlg: values['id-token-alg'] as NewClientInput['idTokenSignedResponseAlg'],
    };
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

const remove: Command = {
  summary: 'delete a client and revoke everything issued to it',
  help: `Usage: gatehouse client delete <client_id> [--json]

Deletes a client and revokes its tokens, codes and grants. Exits 1 if there is no such client.
`,
  async run(argv, ctx) {
    const { positionals: rest } = parseCommand('client delete', argv, {});
    const [id] = positionals('client delete', rest, ['client_id']);
    if (!(await (await services()).removeClient(await ctx.db(), id, BY_CLI))) throw new NotFound(`no client with id ${id}`);
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

export const clientCommands: Record<string, Command> = { create, list, delete: remove, disable };
