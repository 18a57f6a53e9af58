/**
 * Interaction helpers for the login and consent pages. The provider finds an
 * interaction through its signed `_interaction` cookie (scoped to
 * /interaction/:uid), which also binds the interaction to the browser that
 * started it; these helpers give it a Node request built from the page's or
 * route's cookie header, with host and scheme pinned to the issuer.
 */
import 'server-only';
import { randomUUID } from 'node:crypto';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type Provider from 'oidc-provider';
import type { InteractionResults } from 'oidc-provider';
import type { AppContext } from '../context.ts';
import { pinToIssuer } from './issuer-headers.ts';
import { appOrigin } from './return-link.ts';

export type Interaction = Awaited<ReturnType<Provider['interactionDetails']>>;

function nodeRequest(ctx: AppContext, uid: string, cookie: string | null): { req: IncomingMessage; res: ServerResponse } {
  const issuer = new URL(ctx.config.ISSUER);
  const req = new IncomingMessage(new Socket());
  req.method = 'GET';
  req.url = `/interaction/${encodeURIComponent(uid)}`;
  req.headers = cookie ? { cookie } : {};
  pinToIssuer(req.headers, issuer, randomUUID());
  return { req, res: new ServerResponse(req) };
}

/** The interaction `uid` names, if this browser's cookie points at it; undefined when expired or foreign. */
export async function findInteraction(ctx: AppContext, uid: string, cookie: string | null): Promise<Interaction | undefined> {
  const provider = await ctx.provider();
  const { req, res } = nodeRequest(ctx, uid, cookie);
  try {
    const interaction = await provider.interactionDetails(req, res);
    return interaction.uid === uid ? interaction : undefined;
  } catch (error) {
    if (error instanceof Error && error.name === 'SessionNotFound') return undefined;
    throw error;
  }
}

/** Records the outcome of an interaction and returns the URL that resumes the authorization request. */
export async function finishInteraction(
  ctx: AppContext,
  uid: string,
  cookie: string | null,
  result: InteractionResults,
  options: { mergeWithLastSubmission?: boolean } = {},
): Promise<string> {
  const provider = await ctx.provider();
  const { req, res } = nodeRequest(ctx, uid, cookie);
  return provider.interactionResult(req, res, result, options);
}

/** Display data of the client behind an interaction: never its secret. */
export async function clientForDisplay(ctx: AppContext, clientId: string): Promise<{ clientId: string; name: string; logoUri?: string } | undefined> {
  const provider = await ctx.provider();
  const client = await provider.Client.find(clientId);
  if (!client) return undefined;
  return { clientId: client.clientId, name: client.clientName ?? client.clientId, logoUri: client.logoUri };
}

/**
 * The application a dead-end page may send the person back to (lib/oidc/return-link.ts): its
 * name and the origin of `redirectUri`, when that is registered for the client; else none.
 */
export async function returnLink(ctx: AppContext, clientId: unknown, redirectUri: unknown): Promise<{ name: string; href: string } | undefined> {
  if (typeof clientId !== 'string' || !clientId) return undefined;
  const provider = await ctx.provider();
  const client = await provider.Client.find(clientId).catch(() => undefined);
  const href = client ? appOrigin(client.redirectUris, redirectUri) : undefined;
  return client && href ? { name: client.clientName ?? client.clientId, href } : undefined;
}

/**
 * The parameters an interaction was started with, found by its uid alone: for the page of an
 * interaction this browser cannot use (its cookie is missing, or it was opened elsewhere), to
 * say where the person came from. Nothing here lets anyone act on the interaction.
 */
export async function interactionParams(ctx: AppContext, uid: string): Promise<Record<string, unknown> | undefined> {
  const provider = await ctx.provider();
  const stored = await provider.Interaction.find(uid).catch(() => undefined);
  return stored?.params;
}

/** A grant to extend with what the consent prompt asked for. */
export async function grantFor(ctx: AppContext, interaction: Interaction) {
  const provider = await ctx.provider();
  const { grantId, session, params } = interaction;
  const existing = grantId ? await provider.Grant.find(grantId) : undefined;
  return existing ?? new provider.Grant({ accountId: session?.accountId as string, clientId: params.client_id as string });
}
