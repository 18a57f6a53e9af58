/**
 * `gatehouse webhook ...`: endpoints that get signed events (lib/webhooks). The signing secret is printed
 * once, by `create`; nothing prints it again.
 */
import { BY_CLI } from '../../lib/audit/log.ts';
import { InvalidRequest, parseInput } from '../../lib/platform/errors.ts';
import type { EndpointUpdate } from '../../lib/webhooks/manage.ts';
import { webhookEventTypes, type WebhookEventType } from '../../lib/webhooks/events.ts';
import { deliveryToWire, endpointToWire } from '../../lib/webhooks/wire.ts';
import { parseCommand, positionals, type Command } from '../args.ts';
import { table } from '../output.ts';

const manage = () => import('../../lib/webhooks/manage.ts');

const options = {
  url: { type: 'string' },
  description: { type: 'string' },
  event: { type: 'string', multiple: true },
  enabled: { type: 'string' },
} as const;

const FLAGS = `  --url URL                   where deliveries are posted: https (http only on loopback addresses)
  --event TYPE                an event it gets, repeatable; one of:
                              ${webhookEventTypes.join(', ')}
  --description TEXT
  --enabled on|off            (default: on)
  --json                      print JSON`;

type Values = { url?: string; description?: string; event?: string[]; enabled?: string };

function fieldsOf(command: string, values: Values): EndpointUpdate {
  if (values.enabled !== undefined && values.enabled !== 'on' && values.enabled !== 'off') throw new InvalidRequest(`${command}: --enabled is on or off`);
  const fields: EndpointUpdate = {
    url: values.url,
    description: values.description,
    events: values.event?.flatMap((event) => event.split(',')).map((event) => event.trim()) as WebhookEventType[] | undefined,
    enabled: values.enabled === undefined ? undefined : values.enabled === 'on',
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as EndpointUpdate;
}

const create: Command = {
  summary: 'register a webhook endpoint (its signing secret is printed once)',
  help: `Usage: gatehouse webhook create --url URL --event TYPE [--event TYPE ...] [options]\n\n${FLAGS}\n`,
  async run(argv, ctx) {
    const { values, positionals: rest } = parseCommand('webhook create', argv, options);
    positionals('webhook create', rest, []);
    const { createEndpoint, newEndpointSchema } = await manage();
    const input = parseInput(newEndpointSchema, fieldsOf('webhook create', values)); // bad input fails before a database is opened
    const { endpoint, secret } = await createEndpoint(await ctx.db(), input, BY_CLI);
    return {
      json: { ...endpointToWire(endpoint), secret },
      text: [`Created webhook endpoint ${endpoint.id}`, `url: ${endpoint.url}`, `events: ${endpoint.events.join(' ')}`, `secret: ${secret}`].join('\n'),
      notice: 'Store the signing secret now where the receiver reads it: Gatehouse shows it only this once.',
    };
  },
};

const update: Command = {
  summary: 'change a webhook endpoint (only the flags given); --enabled on resumes one disabled after failures',
  help: `Usage: gatehouse webhook update ID [options]\n\n${FLAGS}\n`,
  async run(argv, ctx) {
    const { values, positionals: rest } = parseCommand('webhook update', argv, options);
    const [id] = positionals('webhook update', rest, ['id']);
    const { updateEndpoint } = await manage();
    const endpoint = await updateEndpoint(await ctx.db(), id, fieldsOf('webhook update', values), BY_CLI);
    return { json: endpointToWire(endpoint), text: `Updated webhook endpoint ${endpoint.id}` };
  },
};

const state = (e: { enabled: boolean; disabledReason: string | null }) => (e.enabled ? 'on' : e.disabledReason === 'failing' ? 'off (failing)' : 'off');

const list: Command = {
  summary: 'list webhook endpoints (never their secrets)',
  help: 'Usage: gatehouse webhook list [--json]\n',
  async run(argv, ctx) {
    const { positionals: rest } = parseCommand('webhook list', argv, {});
    positionals('webhook list', rest, []);
    const { listEndpoints } = await manage();
    const endpoints = await listEndpoints(await ctx.db());
    return {
      json: endpoints.map(endpointToWire),
      text: table(
        ['ID', 'URL', 'ENABLED', 'EVENTS'],
        endpoints.map((e) => [e.id, e.url, state(e), e.events.join(' ')]),
        'No webhook endpoints: nothing is sent.',
      ),
    };
  },
};

const remove: Command = {
  summary: 'delete a webhook endpoint with its deliveries, pending ones too',
  help: 'Usage: gatehouse webhook delete ID [--json]\n',
  async run(argv, ctx) {
    const { positionals: rest } = parseCommand('webhook delete', argv, {});
    const [id] = positionals('webhook delete', rest, ['id']);
    const { deleteEndpoint } = await manage();
    await deleteEndpoint(await ctx.db(), id, BY_CLI);
    return { json: { id, deleted: true }, text: `Deleted webhook endpoint ${id}` };
  },
};

const deliveries: Command = {
  summary: "an endpoint's deliveries, newest first: status, attempts, the last answer",
  help: `Usage: gatehouse webhook deliveries ID [--status pending|delivered|failed] [--page N] [--json]\n`,
  async run(argv, ctx) {
    const { values, positionals: rest } = parseCommand('webhook deliveries', argv, { status: { type: 'string' }, page: { type: 'string' } });
    const [id] = positionals('webhook deliveries', rest, ['id']);
    const { deliveryPage } = await manage();
    const page = await deliveryPage(await ctx.db(), id, { status: values.status as 'pending' | undefined, page: values.page ?? 1 });
    return {
      json: { data: page.deliveries.map(deliveryToWire), page: page.page, per_page: page.perPage, total: page.total },
      text: table(
        ['ID', 'TYPE', 'STATUS', 'ATTEMPTS', 'CREATED', 'LAST'],
        page.deliveries.map((d) => [
          d.id,
          d.type,
          d.status,
          String(d.attempts),
          d.createdAt.toISOString(),
          d.lastError ?? (d.lastStatus ? `HTTP ${d.lastStatus}` : ''),
        ]),
        'No deliveries.',
      ),
    };
  },
};

const resend: Command = {
  summary: 'send a delivered or failed delivery again (same webhook-id, fresh attempts)',
  help: 'Usage: gatehouse webhook resend ID DELIVERY_ID [--json]\n',
  async run(argv, ctx) {
    const { positionals: rest } = parseCommand('webhook resend', argv, {});
    const [id, deliveryId] = positionals('webhook resend', rest, ['id', 'delivery_id']);
    const { resendEndpointDelivery } = await manage();
    const delivery = await resendEndpointDelivery(await ctx.db(), id, deliveryId, Date.now(), BY_CLI);
    return { json: deliveryToWire(delivery), text: `Delivery ${delivery.id}: ${delivery.status}` };
  },
};

export const webhookCommands: Record<string, Command> = { create, update, list, delete: remove, deliveries, resend };
