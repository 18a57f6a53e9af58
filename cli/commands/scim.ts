/**
 * `gatehouse scim token create|list|revoke`: the tokens SCIM provisioning clients (an HR system, Okta, Entra ID)
 * authenticate with at /scim/v2 (SCIM=on; lib/scim/tokens.ts). One command with the action as its first word,
 * so the line reads as the portal's page does. The use cases are imported when a command runs.
 */
import { BY_CLI } from '../../lib/audit/log.ts';
import { InvalidRequest, parseInput } from '../../lib/platform/errors.ts';
import type { ScimTokenRecord } from '../../lib/scim/tokens.ts';
import { parseCommand, positionals, type Command } from '../args.ts';
import { table } from '../output.ts';

const tokens = () => import('../../lib/scim/tokens.ts');
/** The admin API's shape of a token: --json prints what GET /api/admin/scim-tokens answers. */
const toWire = async (token: ScimTokenRecord) => (await import('../../lib/surfaces/admin-api/dto/scim.ts')).scimTokenDto(token);

const actions: Record<string, Command> = {
  create: {
    summary: 'issue a token for a provisioning client (printed once)',
    help: '',
    async run(argv, ctx) {
      const { values, positionals: rest } = parseCommand('scim token create', argv, { name: { type: 'string' } });
      positionals('scim token create', rest, []);
      const { scimTokenSchema, issueScimToken } = await tokens();
      const input = { name: values.name ?? '' };
      parseInput(scimTokenSchema, input); // bad input fails before a database is opened
      const { token, record } = await issueScimToken(await ctx.db(), input, BY_CLI);
      return {
        json: { ...(await toWire(record)), token },
        text: [`Issued SCIM token "${record.name}" (${record.id})`, `token: ${token}`].join('\n'),
        notice: 'Hand the token over now: Gatehouse keeps only a hash of it and cannot show it again.',
      };
    },
  },
  list: {
    summary: 'list the tokens (never the tokens themselves)',
    help: '',
    async run(argv, ctx) {
      const { positionals: rest } = parseCommand('scim token list', argv, {});
      positionals('scim token list', rest, []);
      const all = await (await tokens()).listScimTokens(await ctx.db());
      const rows = all.map((t) => [t.id, t.name, t.revokedAt ? 'revoked' : 'live', t.lastUsedAt?.toISOString() ?? 'never', t.createdAt.toISOString()]);
      return {
        json: await Promise.all(all.map(toWire)),
        text: table(['ID', 'NAME', 'STATE', 'LAST USED', 'CREATED'], rows, 'No SCIM tokens issued.'),
      };
    },
  },
  revoke: {
    summary: 'revoke a token (what the client provisioned stays)',
    help: '',
    async run(argv, ctx) {
      const { positionals: rest } = parseCommand('scim token revoke', argv, {});
      const [id] = positionals('scim token revoke', rest, ['id']);
      const record = await (await tokens()).revokeScimToken(await ctx.db(), id, { now: Date.now(), by: BY_CLI });
      return { json: await toWire(record), text: `Revoked SCIM token "${record.name}" (${id}).` };
    },
  },
};

const token: Command = {
  summary: 'tokens of SCIM provisioning clients: create --name NAME | list | revoke <id>',
  help: `Usage: gatehouse scim token create --name NAME [--json]
       gatehouse scim token list [--json]
       gatehouse scim token revoke <id> [--json]

A provisioning client (an HR system, Okta, Entra ID) sends its token as
"Authorization: Bearer <token>" to /scim/v2 (SCIM=on) and creates, changes,
deactivates and deletes people without an admin role, and groups. The audit
log names each change "scim:<name>". The token is printed once; Gatehouse
keeps only a hash of it. Revoking refuses the client's next request; the
people and groups it provisioned stay.
`,
  fields: { name: '--name' },
  async run(argv, ctx) {
    const [action, ...rest] = argv;
    const command = action !== undefined && Object.hasOwn(actions, action) ? actions[action] : undefined;
    if (!command) throw new InvalidRequest(`${action === undefined ? 'missing' : `unknown`} action: scim token create | list | revoke`);
    return command.run(rest, ctx);
  },
};

export const scimCommands: Record<string, Command> = { token };
