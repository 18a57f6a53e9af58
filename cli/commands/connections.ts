/**
 * `gatehouse connection ...`: upstream identity providers people may sign in with (lib/federation).
 * The client secret is read from an environment variable, never from the command line (which other
 * users of the machine and the shell's history see), and never printed.
 */
import { BY_CLI } from '../../lib/audit/log.ts';
import { InvalidRequest, parseInput } from '../../lib/platform/errors.ts';
import type { ConnectionUpdate, NewConnectionInput } from '../../lib/federation/manage.ts';
import { PRESETS, presetFields, type Preset } from '../../lib/federation/presets.ts';
import { connectionToWire } from '../../lib/federation/wire.ts';
import { env } from '../../lib/config/env.ts';
import { parseCommand, positionals, type Command } from '../args.ts';
import { table } from '../output.ts';

const manage = () => import('../../lib/federation/manage.ts');

const options = {
  preset: { type: 'string' },
  tenant: { type: 'string' },
  kind: { type: 'string' },
  name: { type: 'string' },
  icon: { type: 'string' },
  issuer: { type: 'string' },
  'authorization-endpoint': { type: 'string' },
  'token-endpoint': { type: 'string' },
  'userinfo-endpoint': { type: 'string' },
  'emails-endpoint': { type: 'string' },
  'client-id': { type: 'string' },
  'client-secret-env': { type: 'string' },
  scopes: { type: 'string' },
  pkce: { type: 'string' },
  'login-hint': { type: 'string' },
  claim: { type: 'string', multiple: true },
  enabled: { type: 'string' },
  jit: { type: 'string' },
  'jit-state': { type: 'string' },
  domain: { type: 'string', multiple: true },
  client: { type: 'string', multiple: true },
  'trusted-for-mfa': { type: 'string' },
  'upstream-logout': { type: 'string' },
  'keep-tokens': { type: 'string' },
} as const;

const FLAGS = `  --preset P                  google | microsoft | github | gitlab: fills in the endpoints and claims
  --tenant T                  with --preset microsoft: the directory (tenant) id or domain
  --kind K                    oidc (discovery from --issuer; default) | oauth2 (GitHub-shaped)
  --name NAME                 the button's name on the sign-in page
  --icon FILE                 a file under public/connections/ (default: the name's initial)
  --issuer URL                oidc: the issuer discovery starts from
  --authorization-endpoint URL, --token-endpoint URL
  --userinfo-endpoint URL     oauth2: the profile endpoint (GitHub: https://api.github.com/user)
  --emails-endpoint URL       oauth2: the addresses with their verified flag (GitHub: /user/emails)
  --client-id ID              the client id registered upstream
  --client-secret-env VAR     the name of an environment variable holding the client secret
  --scopes "S S ..."          (default: openid profile email)
  --pkce on|off               (default: on)
  --login-hint on|off         pass the app's login_hint (or the typed address) upstream (default: on)
  --claim FIELD=CLAIM         which upstream claim fills username, email, name, picture (oauth2:
                              also subject), repeatable
  --enabled on|off            (default: on)
  --jit on|off                create people on their first sign-in (default: off)
  --jit-state enabled|disabled  the state such accounts start in (default: enabled)
  --domain D                  an email domain it serves, repeatable
  --client ID                 a client whose sign-in page offers it, repeatable (default: none)
  --trusted-for-mfa on|off    its sign-ins count as multi-factor when the upstream says so (amr mfa)
  --upstream-logout on|off    go on to the upstream's end_session_endpoint on logout
  --keep-tokens on|off        keep the upstream's tokens, sealed (default: off)
  --json                      print JSON (never the secret)`;

type Values = { [K in keyof typeof options]?: (typeof options)[K] extends { multiple: true } ? string[] : string };

function onOff(command: string, flag: string, value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === 'on' || value === 'off') return value === 'on';
  throw new InvalidRequest(`${command}: --${flag} is on or off`);
}

/** The fields the flags give; undefined where a flag is absent. */
function fieldsOf(command: string, values: Values): ConnectionUpdate {
  let secret: string | undefined;
  if (values['client-secret-env'] !== undefined) {
    secret = process.env[values['client-secret-env']];
    if (!secret) throw new InvalidRequest(`${command}: the environment variable ${values['client-secret-env']} is empty or not set`);
  }
  const claims = values.claim?.map((pair) => {
    const [field, claim] = pair.split('=');
    if (!field || !claim) throw new InvalidRequest(`${command}: --claim is FIELD=CLAIM, e.g. username=preferred_username`);
    return [field, claim];
  });
  const fields: ConnectionUpdate = {
    kind: values.kind as ConnectionUpdate['kind'],
    displayName: values.name,
    icon: values.icon,
    issuer: values.issuer,
    authorizationEndpoint: values['authorization-endpoint'],
    tokenEndpoint: values['token-endpoint'],
    userinfoEndpoint: values['userinfo-endpoint'],
    emailsEndpoint: values['emails-endpoint'],
    clientId: values['client-id'],
    clientSecret: secret,
    scopes: values.scopes,
    pkce: onOff(command, 'pkce', values.pkce),
    passLoginHint: onOff(command, 'login-hint', values['login-hint']),
    claimMapping: claims ? Object.fromEntries(claims) : undefined,
    enabled: onOff(command, 'enabled', values.enabled),
    jitCreate: onOff(command, 'jit', values.jit),
    jitState: values['jit-state'] as ConnectionUpdate['jitState'],
    emailDomains: values.domain,
    clientIds: values.client,
    trustedForMfa: onOff(command, 'trusted-for-mfa', values['trusted-for-mfa']),
    upstreamLogout: onOff(command, 'upstream-logout', values['upstream-logout']),
    keepTokens: onOff(command, 'keep-tokens', values['keep-tokens']),
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as ConnectionUpdate;
}

const callbackNote = () => `Register this callback URL at the provider: ${new URL('/federation/callback', env().ISSUER).toString()}`;

const create: Command = {
  summary: 'add an identity provider people may sign in with (off for every client until --client names one)',
  help: `Usage: gatehouse connection create SLUG [--preset P] --client-id ID [options]

SLUG names it in URLs and commands: lowercase letters, digits and dashes.

${FLAGS}
`,
  async run(argv, ctx) {
    const { values, positionals: rest } = parseCommand('connection create', argv, options);
    const [slug] = positionals('connection create', rest, ['slug']);
    let preset: Partial<NewConnectionInput> = {};
    if (values.preset !== undefined) {
      if (!(PRESETS as readonly string[]).includes(values.preset)) throw new InvalidRequest(`connection create: --preset is one of ${PRESETS.join(', ')}`);
      try {
        preset = presetFields(values.preset as Preset, { tenant: values.tenant });
      } catch (error) {
        throw new InvalidRequest(`connection create: ${(error as Error).message}`);
      }
    }
    const input = { ...preset, ...fieldsOf('connection create', values), slug } as NewConnectionInput;
    const { createConnection, newConnectionSchema } = await manage();
    parseInput(newConnectionSchema, input); // bad input fails before a database is opened
    const connection = await createConnection(await ctx.db(), input, BY_CLI);
    return {
      json: connectionToWire(connection),
      text: `Created connection ${connection.slug} (${connection.kind}, ${connection.enabled ? 'on' : 'off'})`,
      notice: callbackNote(),
    };
  },
};

const update: Command = {
  summary: 'change a connection (only the flags given)',
  help: `Usage: gatehouse connection update SLUG [options]\n\n${FLAGS.split('\n').slice(2).join('\n')}\n`,
  async run(argv, ctx) {
    const { values, positionals: rest } = parseCommand('connection update', argv, options);
    const [slug] = positionals('connection update', rest, ['slug']);
    if (values.preset !== undefined) throw new InvalidRequest('connection update: --preset is for create only');
    const changes = fieldsOf('connection update', values);
    const { updateConnection } = await manage();
    const connection = await updateConnection(await ctx.db(), slug, changes, BY_CLI);
    return { json: connectionToWire(connection), text: `Updated connection ${connection.slug}` };
  },
};

const list: Command = {
  summary: 'list connections (never their secrets)',
  help: 'Usage: gatehouse connection list [--json]\n',
  async run(argv, ctx) {
    const { positionals: rest } = parseCommand('connection list', argv, {});
    positionals('connection list', rest, []);
    const { listConnections } = await manage();
    const connections = await listConnections(await ctx.db());
    const rows = connections.map((c) => [
      c.slug,
      c.kind,
      c.displayName,
      c.enabled ? 'on' : 'off',
      c.issuer ?? c.authorizationEndpoint ?? '',
      c.clientIds.join(' '),
    ]);
    return {
      json: connections.map(connectionToWire),
      text: table(['SLUG', 'KIND', 'NAME', 'ENABLED', 'ISSUER', 'CLIENTS'], rows, 'No connections: people sign in with Gatehouse accounts only.'),
    };
  },
};

const remove: Command = {
  summary: 'delete a connection and every identity linked through it (the accounts stay)',
  help: 'Usage: gatehouse connection delete SLUG [--json]\n',
  async run(argv, ctx) {
    const { positionals: rest } = parseCommand('connection delete', argv, {});
    const [slug] = positionals('connection delete', rest, ['slug']);
    const { deleteConnection } = await manage();
    await deleteConnection(await ctx.db(), slug, BY_CLI);
    return { json: { slug, deleted: true }, text: `Deleted connection ${slug}` };
  },
};

const signIn: Command = {
  summary: "show or change a client's sign-in page: its password form and the connections offered on it",
  help: `Usage: gatehouse connection sign-in CLIENT_ID [--password-form on|off] [--json]

  --password-form on|off      off: the client's sign-in page shows only its connections (and passkeys),
                              and a password posted for it is refused (default: on)
`,
  async run(argv, ctx) {
    const { values, positionals: rest } = parseCommand('connection sign-in', argv, { 'password-form': { type: 'string' } });
    const [clientId] = positionals('connection sign-in', rest, ['client_id']);
    const { findClientSignIn, setPasswordForm } = await import('../../lib/federation/client-sign-in.ts');
    const passwordForm = onOff('connection sign-in', 'password-form', values['password-form']);
    const db = await ctx.db();
    const entry = passwordForm === undefined ? await findClientSignIn(db, clientId) : await setPasswordForm(db, clientId, passwordForm, BY_CLI);
    const connections = entry.connections.length ? entry.connections.join(', ') : 'none';
    return {
      json: { client_id: entry.clientId, password_form: entry.passwordForm, connections: entry.connections },
      text: `${entry.clientId}: password form ${entry.passwordForm ? 'on' : 'off'}; connections: ${connections}`,
    };
  },
};

export const connectionCommands: Record<string, Command> = { create, update, list, delete: remove, 'sign-in': signIn };
