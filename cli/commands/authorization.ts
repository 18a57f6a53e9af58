/**
 * `gatehouse api|group|role ...`: who may do what (lib/authorization). APIs are named by their
 * identifier (the audience), groups and roles by name, people by username, clients by client_id.
 * The use cases are imported when a command runs: they pull in the database.
 */
import { BY_CLI } from '../../lib/audit/log.ts';
import { InvalidRequest } from '../../lib/platform/errors.ts';
import { apiToWire, groupToWire, roleToWire } from '../../lib/authorization/wire.ts';
import { parseCommand, positionals, type Command } from '../args.ts';
import { table } from '../output.ts';

const services = () => import('../../lib/authorization/manage.ts');

/** `name` or `name=description`, as --permission takes it. */
function permissionArg(value: string) {
  const at = value.indexOf('=');
  return at === -1 ? { name: value } : { name: value.slice(0, at), description: value.slice(at + 1) };
}

const lifetimeOf = (value: string | undefined) => {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new InvalidRequest('--lifetime is a number of seconds');
  return Number(value);
};

const apiFields = {
  identifier: '<identifier>',
  name: '--name',
  tokenFormat: '--format',
  tokenLifetime: '--lifetime',
  signingAlg: '--alg',
  permissions: '--permission',
};

const apiOptions = {
  name: { type: 'string' },
  format: { type: 'string' },
  lifetime: { type: 'string' },
  alg: { type: 'string' },
  'roles-in-token': { type: 'boolean' },
  'no-roles-in-token': { type: 'boolean' },
} as const;

const apiText = (api: ReturnType<typeof apiToWire>) =>
  [
    `${api.identifier}  ${api.name}`,
    `  tokens: ${api.token_format}, ${api.token_lifetime} s${api.token_format === 'jwt' ? `, ${api.signing_alg}` : ''}${api.roles_in_token ? ', with roles and groups' : ''}`,
    ...api.permissions.map((p) => `  ${p.name}${p.description ? `  ${p.description}` : ''}`),
  ].join('\n');

export const apiCommands: Record<string, Command> = {
  list: {
    summary: 'list the APIs (resource servers) and their permissions',
    help: 'Usage: gatehouse api list [--json]\n',
    async run(argv, ctx) {
      positionals('api list', parseCommand('api list', argv, {}).positionals, []);
      const apis = (await (await services()).listApis(await ctx.db())).map(apiToWire);
      return { json: apis, text: apis.length ? apis.map(apiText).join('\n\n') : 'No APIs registered.' };
    },
  },
  create: {
    summary: 'register an API: its identifier (the audience), name, permissions and token format',
    help: `Usage: gatehouse api create <identifier> --name N [--permission P[=description]]... [--format jwt|opaque]
       [--lifetime SECONDS] [--alg ES256|RS256] [--roles-in-token] [--json]

<identifier> is the resource indicator clients send (RFC 8707) and the tokens' audience: an https URI
or a URN. Tokens are JWTs (RFC 9068) by default, valid for --lifetime seconds (default 300, at most 3600:
a JWT stays valid until it expires). --roles-in-token: the JWT carries the person's roles and groups.
`,
    fields: apiFields,
    async run(argv, ctx) {
      const { values, positionals: rest } = parseCommand('api create', argv, { ...apiOptions, permission: { type: 'string', multiple: true } });
      const [identifier] = positionals('api create', rest, ['identifier']);
      const api = await (await services()).createApi(
        await ctx.db(),
        {
          identifier,
          name: values.name ?? '',
          permissions: (values.permission ?? []).map(permissionArg),
          tokenFormat: values.format as 'jwt' | 'opaque' | undefined,
          tokenLifetime: lifetimeOf(values.lifetime),
          signingAlg: values.alg as 'ES256' | 'RS256' | undefined,
          rolesInToken: values['roles-in-token'] === true,
        },
        BY_CLI,
      );
      const wire = apiToWire(api);
      return { json: wire, text: `Registered\n${apiText(wire)}` };
    },
  },
  update: {
    summary: "change an API's name or token settings",
    help: 'Usage: gatehouse api update <identifier> [--name N] [--format jwt|opaque] [--lifetime S] [--alg ES256|RS256] [--[no-]roles-in-token] [--json]\n',
    fields: apiFields,
    async run(argv, ctx) {
      const { values, positionals: rest } = parseCommand('api update', argv, apiOptions);
      const [identifier] = positionals('api update', rest, ['identifier']);
      if (values['roles-in-token'] && values['no-roles-in-token'])
        throw new InvalidRequest('api update: choose one of --roles-in-token and --no-roles-in-token');
      const rolesInToken = values['roles-in-token'] ? true : values['no-roles-in-token'] ? false : undefined;
      const api = await (await services()).updateApi(
        await ctx.db(),
        identifier,
        {
          name: values.name,
          tokenFormat: values.format as 'jwt' | 'opaque' | undefined,
          tokenLifetime: lifetimeOf(values.lifetime),
          signingAlg: values.alg as 'ES256' | 'RS256' | undefined,
          rolesInToken,
        },
        BY_CLI,
      );
      const wire = apiToWire(api);
      return { json: wire, text: apiText(wire) };
    },
  },
  delete: {
    summary: 'delete an API: its permissions leave every role and client, and tokens for it are no longer issued',
    help: 'Usage: gatehouse api delete <identifier> [--json]\n',
    async run(argv, ctx) {
      const [identifier] = positionals('api delete', parseCommand('api delete', argv, {}).positionals, ['identifier']);
      await (await services()).deleteApi(await ctx.db(), identifier, BY_CLI);
      return { json: { identifier, deleted: true }, text: `Deleted ${identifier}` };
    },
  },
  permission: {
    summary: 'add a permission to an API, or change its description',
    help: 'Usage: gatehouse api permission <identifier> <name> [--description D] [--json]\n',
    fields: { name: '<name>', description: '--description' },
    async run(argv, ctx) {
      const { values, positionals: rest } = parseCommand('api permission', argv, { description: { type: 'string' } });
      const [identifier, name] = positionals('api permission', rest, ['identifier', 'name']);
      const api = await (await services()).setApiPermission(await ctx.db(), identifier, { name, description: values.description }, BY_CLI);
      const wire = apiToWire(api);
      return { json: wire, text: apiText(wire) };
    },
  },
  'remove-permission': {
    summary: 'remove a permission from an API (and from every role and client that had it)',
    help: 'Usage: gatehouse api remove-permission <identifier> <name> [--json]\n',
    async run(argv, ctx) {
      const [identifier, name] = positionals('api remove-permission', parseCommand('api remove-permission', argv, {}).positionals, ['identifier', 'name']);
      const wire = apiToWire(await (await services()).removeApiPermission(await ctx.db(), identifier, name, BY_CLI));
      return { json: wire, text: apiText(wire) };
    },
  },
  grant: {
    summary: 'let a machine client get a permission with client_credentials',
    help: 'Usage: gatehouse api grant <identifier> <permission> --client <client_id> [--json]\n',
    async run(argv, ctx) {
      const { values, positionals: rest } = parseCommand('api grant', argv, { client: { type: 'string' } });
      const [identifier, permission] = positionals('api grant', rest, ['identifier', 'permission']);
      if (!values.client) throw new InvalidRequest('api grant: --client is required');
      const added = await (await services()).grantClientPermission(await ctx.db(), values.client, identifier, permission, BY_CLI);
      return {
        json: { client_id: values.client, api: identifier, permission, added },
        text: `${values.client} ${added ? 'gets' : 'already had'} ${permission} of ${identifier}`,
      };
    },
  },
  revoke: {
    summary: 'take a permission back from a machine client',
    help: 'Usage: gatehouse api revoke <identifier> <permission> --client <client_id> [--json]\n',
    async run(argv, ctx) {
      const { values, positionals: rest } = parseCommand('api revoke', argv, { client: { type: 'string' } });
      const [identifier, permission] = positionals('api revoke', rest, ['identifier', 'permission']);
      if (!values.client) throw new InvalidRequest('api revoke: --client is required');
      await (await services()).revokeClientPermission(await ctx.db(), values.client, identifier, permission, BY_CLI);
      return {
        json: { client_id: values.client, api: identifier, permission, removed: true },
        text: `${values.client} no longer gets ${permission} of ${identifier}`,
      };
    },
  },
};

export const groupCommands: Record<string, Command> = {
  list: {
    summary: 'list the groups, their member counts and roles',
    help: 'Usage: gatehouse group list [--json]\n',
    async run(argv, ctx) {
      positionals('group list', parseCommand('group list', argv, {}).positionals, []);
      const groups = (await (await services()).listGroups(await ctx.db())).map(groupToWire);
      return {
        json: groups,
        text: table(
          ['NAME', 'MEMBERS', 'ROLES', 'DESCRIPTION'],
          groups.map((g) => [g.name, String(g.members), (g.roles ?? []).join(' '), g.description]),
          'No groups.',
        ),
      };
    },
  },
  create: {
    summary: 'create a group (its name is what the groups claim carries)',
    help: 'Usage: gatehouse group create <name> [--description D] [--json]\n',
    fields: { name: '<name>', description: '--description' },
    async run(argv, ctx) {
      const { values, positionals: rest } = parseCommand('group create', argv, { description: { type: 'string' } });
      const [name] = positionals('group create', rest, ['name']);
      const group = await (await services()).createGroup(await ctx.db(), { name, description: values.description }, BY_CLI);
      return { json: groupToWire(group), text: `Created group ${group.name}` };
    },
  },
  delete: {
    summary: 'delete a group (its members lose the roles it gave them)',
    help: 'Usage: gatehouse group delete <name> [--json]\n',
    async run(argv, ctx) {
      const [name] = positionals('group delete', parseCommand('group delete', argv, {}).positionals, ['name']);
      await (await services()).deleteGroup(await ctx.db(), name, BY_CLI);
      return { json: { name, deleted: true }, text: `Deleted group ${name}` };
    },
  },
  members: {
    summary: "list a group's members",
    help: 'Usage: gatehouse group members <name> [--json]\n',
    async run(argv, ctx) {
      const [name] = positionals('group members', parseCommand('group members', argv, {}).positionals, ['name']);
      const group = await (await services()).groupDetail(await ctx.db(), name);
      const members = group.memberList.map((m) => m.username);
      return { json: { ...groupToWire(group), member_list: members }, text: members.length ? members.join('\n') : `${name} has no members.` };
    },
  },
  add: {
    summary: 'put a person in a group',
    help: 'Usage: gatehouse group add <group> <username> [--json]\n',
    async run(argv, ctx) {
      const [group, username] = positionals('group add', parseCommand('group add', argv, {}).positionals, ['group', 'username']);
      const added = await (await services()).addToGroup(await ctx.db(), group, username, BY_CLI);
      return { json: { group, username, added }, text: added ? `${username} is now in ${group}` : `${username} was already in ${group}` };
    },
  },
  remove: {
    summary: 'take a person out of a group (from their next token on)',
    help: 'Usage: gatehouse group remove <group> <username> [--json]\n',
    async run(argv, ctx) {
      const [group, username] = positionals('group remove', parseCommand('group remove', argv, {}).positionals, ['group', 'username']);
      await (await services()).removeFromGroup(await ctx.db(), group, username, BY_CLI);
      return { json: { group, username, removed: true }, text: `${username} is no longer in ${group}` };
    },
  },
};

/** --user U or --group G, exactly one. */
function holderOf(command: string, values: { user?: string; group?: string }) {
  if (Boolean(values.user) === Boolean(values.group)) throw new InvalidRequest(`${command}: give exactly one of --user and --group`);
  return values.user ? { user: values.user } : { group: values.group! };
}

const roleText = (role: ReturnType<typeof roleToWire>) =>
  [
    `${role.name}${role.description ? `  ${role.description}` : ''}`,
    ...role.permissions.map((p) => `  grants ${p.permission} of ${p.api}`),
    ...(role.users.length ? [`  users: ${role.users.join(' ')}`] : []),
    ...(role.groups.length ? [`  groups: ${role.groups.join(' ')}`] : []),
  ].join('\n');

export const roleCommands: Record<string, Command> = {
  list: {
    summary: 'list the roles: what each grants, and to whom',
    help: 'Usage: gatehouse role list [--json]\n',
    async run(argv, ctx) {
      positionals('role list', parseCommand('role list', argv, {}).positionals, []);
      const roles = (await (await services()).listRoles(await ctx.db())).map(roleToWire);
      return { json: roles, text: roles.length ? roles.map(roleText).join('\n\n') : 'No roles.' };
    },
  },
  create: {
    summary: 'create a role (its name is what the roles claim carries)',
    help: 'Usage: gatehouse role create <name> [--description D] [--json]\n',
    fields: { name: '<name>', description: '--description' },
    async run(argv, ctx) {
      const { values, positionals: rest } = parseCommand('role create', argv, { description: { type: 'string' } });
      const [name] = positionals('role create', rest, ['name']);
      const s = await services();
      const db = await ctx.db();
      await s.createRole(db, { name, description: values.description }, BY_CLI);
      const wire = roleToWire(await s.roleDetail(db, name));
      return { json: wire, text: `Created role ${roleText(wire)}` };
    },
  },
  delete: {
    summary: 'delete a role (everyone who had it loses what it granted, from their next token on)',
    help: 'Usage: gatehouse role delete <name> [--json]\n',
    async run(argv, ctx) {
      const [name] = positionals('role delete', parseCommand('role delete', argv, {}).positionals, ['name']);
      await (await services()).deleteRole(await ctx.db(), name, BY_CLI);
      return { json: { name, deleted: true }, text: `Deleted role ${name}` };
    },
  },
  permit: {
    summary: "let a role grant one of an API's permissions",
    help: 'Usage: gatehouse role permit <role> <api identifier> <permission> [--json]\n',
    async run(argv, ctx) {
      const [role, api, permission] = positionals('role permit', parseCommand('role permit', argv, {}).positionals, ['role', 'api identifier', 'permission']);
      const s = await services();
      const db = await ctx.db();
      await s.addRolePermission(db, role, api, permission, BY_CLI);
      const wire = roleToWire(await s.roleDetail(db, role));
      return { json: wire, text: roleText(wire) };
    },
  },
  unpermit: {
    summary: 'stop a role granting a permission',
    help: 'Usage: gatehouse role unpermit <role> <api identifier> <permission> [--json]\n',
    async run(argv, ctx) {
      const [role, api, permission] = positionals('role unpermit', parseCommand('role unpermit', argv, {}).positionals, [
        'role',
        'api identifier',
        'permission',
      ]);
      const s = await services();
      const db = await ctx.db();
      await s.removeRolePermission(db, role, api, permission, BY_CLI);
      const wire = roleToWire(await s.roleDetail(db, role));
      return { json: wire, text: roleText(wire) };
    },
  },
  assign: {
    summary: 'give a role to a person or to a group',
    help: 'Usage: gatehouse role assign <role> (--user <username> | --group <group>) [--json]\n',
    async run(argv, ctx) {
      const { values, positionals: rest } = parseCommand('role assign', argv, { user: { type: 'string' }, group: { type: 'string' } });
      const [role] = positionals('role assign', rest, ['role']);
      const s = await services();
      const db = await ctx.db();
      await s.assignRole(db, role, holderOf('role assign', values), BY_CLI);
      const wire = roleToWire(await s.roleDetail(db, role));
      return { json: wire, text: roleText(wire) };
    },
  },
  unassign: {
    summary: 'take a role from a person or a group (from their next token on)',
    help: 'Usage: gatehouse role unassign <role> (--user <username> | --group <group>) [--json]\n',
    async run(argv, ctx) {
      const { values, positionals: rest } = parseCommand('role unassign', argv, { user: { type: 'string' }, group: { type: 'string' } });
      const [role] = positionals('role unassign', rest, ['role']);
      const s = await services();
      const db = await ctx.db();
      await s.unassignRole(db, role, holderOf('role unassign', values), BY_CLI);
      const wire = roleToWire(await s.roleDetail(db, role));
      return { json: wire, text: roleText(wire) };
    },
  },
};
