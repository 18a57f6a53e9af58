/**
 * `gatehouse registration ...`: the initial access tokens with which clients register themselves at
 * /oauth/register (DYNAMIC_REGISTRATION=token; lib/registration/tokens.ts), and approving a client that
 * registered itself and waits for it. The use cases are imported when a command runs.
 */
import { BY_CLI } from '../../lib/audit/log.ts';
import { parseInput } from '../../lib/platform/errors.ts';
import type { InitialAccessTokenRecord } from '../../lib/registration/tokens.ts';
import { parseCommand, positionals, type Command } from '../args.ts';
import { table } from '../output.ts';

const tokens = () => import('../../lib/registration/tokens.ts');
/** The admin API's shape of a token (snake_case, ISO times): --json prints what GET /api/admin/registration-tokens answers. */
const tokenToWire = async (token: InitialAccessTokenRecord) => (await import('../../lib/surfaces/admin-api/dto/registration.ts')).registrationTokenDto(token);

const issue: Command = {
  summary: 'issue an initial access token for dynamic client registration (printed once)',
  help: `Usage: gatehouse registration issue --name NAME [options]

Issues an initial access token (RFC 7591 §3): a client presents it as
"Authorization: Bearer <token>" at /oauth/register to register itself, within
these limits. The token is printed once; Gatehouse keeps only a hash of it.

  --name NAME            who it is for (required)
  --max-clients N        how many clients may register with it (default 1)
  --expires-in-days N    days until it expires (default 7, at most 365)
  --redirect-host HOST   a host the redirect URIs may name, repeatable (default: any)
  --grant-type G         authorization_code | refresh_token | client_credentials, repeatable
                         (default: authorization_code refresh_token)
  --scope S              openid | profile | email | offline_access, repeatable
                         (default: all four)
  --require-approval     clients registered with it wait until an admin approves them
  --json                 print JSON: the token and its limits
`,
  fields: {
    name: '--name',
    maxClients: '--max-clients',
    expiresInDays: '--expires-in-days',
    redirectHosts: '--redirect-host',
    grantTypes: '--grant-type',
    scopes: '--scope',
  },
  async run(argv, ctx) {
    const { values, positionals: rest } = parseCommand('registration issue', argv, {
      name: { type: 'string' },
      'max-clients': { type: 'string' },
      'expires-in-days': { type: 'string' },
      'redirect-host': { type: 'string', multiple: true },
      'grant-type': { type: 'string', multiple: true },
      scope: { type: 'string', multiple: true },
      'require-approval': { type: 'boolean' },
    });
    positionals('registration issue', rest, []);
    const { initialAccessTokenSchema, issueInitialAccessToken } = await tokens();
    const input = {
      name: values.name ?? '',
      maxClients: values['max-clients'],
      expiresInDays: values['expires-in-days'],
      redirectHosts: values['redirect-host'],
      grantTypes: values['grant-type'],
      scopes: values.scope,
      requireApproval: values['require-approval'] ?? false,
    } as Parameters<typeof issueInitialAccessToken>[1];
    parseInput(initialAccessTokenSchema, input); // bad input fails before a database is opened
    const { token, record } = await issueInitialAccessToken(await ctx.db(), input, { now: Date.now(), by: BY_CLI });
    return {
      json: { ...(await tokenToWire(record)), initial_access_token: token },
      text: [`Issued initial access token "${record.name}" (${record.id}), valid until ${record.expiresAt.toISOString()}`, `token: ${token}`].join('\n'),
      notice: 'Hand the token over now: Gatehouse keeps only a hash of it and cannot show it again.',
    };
  },
};

const list: Command = {
  summary: 'list initial access tokens (never the tokens themselves)',
  help: `Usage: gatehouse registration list [--json]
`,
  async run(argv, ctx) {
    const { positionals: rest } = parseCommand('registration list', argv, {});
    positionals('registration list', rest, []);
    const { listInitialAccessTokens, tokenState } = await tokens();
    const all = await listInitialAccessTokens(await ctx.db());
    const now = Date.now();
    const rows = all.map((t) => [
      t.id,
      t.name,
      tokenState(t, now).replace('_', ' '),
      `${t.clientsRegistered}/${t.maxClients}`,
      t.expiresAt.toISOString(),
      t.requireApproval ? 'yes' : 'no',
    ]);
    return {
      json: await Promise.all(all.map(tokenToWire)),
      text: table(['ID', 'NAME', 'STATE', 'CLIENTS', 'EXPIRES', 'APPROVAL'], rows, 'No initial access tokens issued.'),
    };
  },
};

const revoke: Command = {
  summary: 'revoke an initial access token (the clients it registered stay)',
  help: `Usage: gatehouse registration revoke <id> [--json]
`,
  async run(argv, ctx) {
    const { positionals: rest } = parseCommand('registration revoke', argv, {});
    const [id] = positionals('registration revoke', rest, ['id']);
    const record = await (await tokens()).revokeInitialAccessToken(await ctx.db(), id, { now: Date.now(), by: BY_CLI });
    return { json: await tokenToWire(record), text: `Revoked initial access token "${record.name}" (${id}).` };
  },
};

const approve: Command = {
  summary: 'approve a client that registered itself and waits for approval',
  help: `Usage: gatehouse registration approve <client_id> [--json]

A client registered with a token that requires approval (or openly, with
DYNAMIC_REGISTRATION_OPEN_APPROVAL=on) signs no one in until it is approved.
`,
  async run(argv, ctx) {
    const { positionals: rest } = parseCommand('registration approve', argv, {});
    const [id] = positionals('registration approve', rest, ['client_id']);
    const { approveClient } = await import('../../lib/registration/clients.ts');
    const client = await approveClient(await ctx.db(), id, BY_CLI);
    return { json: { client_id: client.id, approval_pending: false }, text: `Approved client "${client.name}" (${id}).` };
  },
};

export const registrationCommands: Record<string, Command> = { issue, list, revoke, approve };
