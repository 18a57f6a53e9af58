/**
 * `gatehouse attribute|claim ...`: custom user attributes and the clients' claim mappings (lib/claims). Attributes
 * are named by key, people by username, clients by client_id. The use cases are imported when a command runs: they
 * pull in the database.
 */
import { BY_CLI } from '../../lib/audit/log.ts';
import { NotFound } from '../../lib/platform/errors.ts';
import type { Database } from '../../lib/db/database.ts';
import { parseCommand, positionals, type Command } from '../args.ts';
import { table } from '../output.ts';

const services = () => import('../../lib/claims/attributes.ts');

const attributeWire = (a: { key: string; name: string; type: string; editableBy: string; createdAt: Date }) => ({
  key: a.key,
  name: a.name,
  type: a.type,
  editable_by: a.editableBy,
  created_at: a.createdAt.toISOString(),
});

async function userIdOf(db: Database, username: string): Promise<string> {
  const { findUserByUsername } = await import('../../lib/users/repository.ts');
  const user = await findUserByUsername(db, username);
  if (!user) throw new NotFound(`no user named ${username}`);
  return user.id;
}

export const attributeCommands: Record<string, Command> = {
  list: {
    summary: 'list the custom user attributes',
    help: 'Usage: gatehouse attribute list [--json]\n',
    async run(argv, ctx) {
      positionals('attribute list', parseCommand('attribute list', argv, {}).positionals, []);
      const attributes = (await (await services()).listAttributes(await ctx.db())).map(attributeWire);
      return {
        json: attributes,
        text: table(
          ['KEY', 'NAME', 'TYPE', 'EDITED BY'],
          attributes.map((a) => [a.key, a.name, a.type, a.editable_by]),
          'No attributes.',
        ),
      };
    },
  },
  create: {
    summary: 'declare a custom user attribute (apps get it only once mapped to a claim for them)',
    help: `Usage: gatehouse attribute create <key> --name N [--type string|number|boolean] [--editable-by admin|user] [--json]

<key> is lowercase letters, digits and _, starting with a letter. --editable-by user: the person may change
their own value on /account too (default admin: only admins).
`,
    fields: { key: '<key>', name: '--name', type: '--type', editableBy: '--editable-by' },
    async run(argv, ctx) {
      const { values, positionals: rest } = parseCommand('attribute create', argv, {
        name: { type: 'string' },
        type: { type: 'string' },
        'editable-by': { type: 'string' },
      });
      const [key] = positionals('attribute create', rest, ['key']);
      const attribute = await (await services()).createAttribute(
        await ctx.db(),
        { key, name: values.name ?? '', type: values.type as 'string' | undefined, editableBy: values['editable-by'] as 'admin' | undefined },
        BY_CLI,
      );
      return { json: attributeWire(attribute), text: `Created attribute ${attribute.key} (${attribute.type}, edited by ${attribute.editableBy})` };
    },
  },
  delete: {
    summary: "delete an attribute, every person's value of it and every client's mapping of it",
    help: 'Usage: gatehouse attribute delete <key> [--json]\n',
    async run(argv, ctx) {
      const [key] = positionals('attribute delete', parseCommand('attribute delete', argv, {}).positionals, ['key']);
      await (await services()).deleteAttribute(await ctx.db(), key, BY_CLI);
      return { json: { key, deleted: true }, text: `Deleted attribute ${key}` };
    },
  },
  set: {
    summary: "set a person's value of an attribute (an empty value removes it)",
    help: 'Usage: gatehouse attribute set <username> <key> <value> [--json]\n\nAn empty <value> ("") removes the value.\n',
    async run(argv, ctx) {
      const [username, key, value] = positionals('attribute set', parseCommand('attribute set', argv, {}).positionals, ['username', 'key', 'value']);
      const db = await ctx.db();
      const values = await (await services()).setAttributeValues(db, await userIdOf(db, username), { [key]: value }, 'admin', BY_CLI);
      return {
        json: { username, values },
        text: key in values ? `${username}: ${key} = ${JSON.stringify(values[key])}` : `${username} has no ${key} now`,
      };
    },
  },
  show: {
    summary: "a person's values of the attributes",
    help: 'Usage: gatehouse attribute show <username> [--json]\n',
    async run(argv, ctx) {
      const [username] = positionals('attribute show', parseCommand('attribute show', argv, {}).positionals, ['username']);
      const db = await ctx.db();
      const values = await (await services()).valuesOf(db, await userIdOf(db, username));
      const rows = Object.entries(values).map(([key, value]) => [key, JSON.stringify(value)]);
      return { json: { username, values }, text: table(['KEY', 'VALUE'], rows, `${username} has no attribute values.`) };
    },
  },
};

async function mappingsOf(db: Database, clientId: string) {
  const { findClient } = await import('../../lib/clients/repository.ts');
  if (!(await findClient(db, clientId))) throw new NotFound(`no client ${clientId}`);
  return (await (await services()).listMappings(db, clientId)).map((m) => ({ claim: m.claim, attribute: m.attribute }));
}

const mappingsText = (clientId: string, mappings: { claim: string; attribute: string }[]) =>
  table(
    ['CLAIM', 'ATTRIBUTE'],
    mappings.map((m) => [m.claim, m.attribute]),
    `${clientId} gets no mapped claims.`,
  );

export const claimCommands: Record<string, Command> = {
  list: {
    summary: "the claims a client's ID tokens and userinfo carry from attributes",
    help: 'Usage: gatehouse claim list <client_id> [--json]\n',
    async run(argv, ctx) {
      const [clientId] = positionals('claim list', parseCommand('claim list', argv, {}).positionals, ['client_id']);
      const mappings = await mappingsOf(await ctx.db(), clientId);
      return { json: mappings, text: mappingsText(clientId, mappings) };
    },
  },
  map: {
    summary: 'give a client an attribute under a claim name (declarative: no code runs)',
    help: `Usage: gatehouse claim map <client_id> <claim> <attribute key> [--json]

The claim name is letters, digits and _ . : / -; a claim Gatehouse already gives apps (email, groups, ...)
is refused.
`,
    fields: { claim: '<claim>' },
    async run(argv, ctx) {
      const [clientId, claim, attribute] = positionals('claim map', parseCommand('claim map', argv, {}).positionals, ['client_id', 'claim', 'attribute key']);
      const db = await ctx.db();
      await (await services()).mapClaim(db, clientId, { claim, attribute }, BY_CLI);
      const mappings = await mappingsOf(db, clientId);
      return { json: mappings, text: mappingsText(clientId, mappings) };
    },
  },
  unmap: {
    summary: 'stop giving a client a mapped claim (from its next token on)',
    help: 'Usage: gatehouse claim unmap <client_id> <claim> [--json]\n',
    async run(argv, ctx) {
      const [clientId, claim] = positionals('claim unmap', parseCommand('claim unmap', argv, {}).positionals, ['client_id', 'claim']);
      const db = await ctx.db();
      await (await services()).unmapClaim(db, clientId, claim, BY_CLI);
      const mappings = await mappingsOf(db, clientId);
      return { json: mappings, text: mappingsText(clientId, mappings) };
    },
  },
};
