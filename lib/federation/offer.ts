/** Which connections the sign-in page of a client offers: none unless an admin put the client on a connection's list. */
import type { Database } from '../db/database.ts';
import { listConnections, type ConnectionRecord } from './repository.ts';

/** A button on the sign-in page. */
export interface OfferedConnection {
  slug: string;
  displayName: string;
  icon: string | null;
}

/** Whether `connection` may be used to sign in to `clientId`: on, and the client on its allow list. */
export const offeredTo = (connection: ConnectionRecord | undefined, clientId: string): connection is ConnectionRecord =>
  Boolean(connection?.enabled && connection.clientIds.includes(clientId));

/** The buttons of `clientId`'s sign-in page, and whether any of them serves email domains (identifier-first sign-in). */
export async function connectionsFor(ctx: { db: Database }, clientId: string): Promise<{ buttons: OfferedConnection[]; realms: boolean }> {
  const offered = (await listConnections(ctx.db)).filter((c) => offeredTo(c, clientId));
  return { buttons: offered.map(({ slug, displayName, icon }) => ({ slug, displayName, icon })), realms: offered.some((c) => c.emailDomains.length > 0) };
}

/**
 * Home realm discovery: the connection offered to `clientId` that serves the domain of `identifier`
 * (`name@company.example`), if any. A domain two connections claim goes to the first by name.
 */
export async function connectionForAddress(ctx: { db: Database }, clientId: string, identifier: string): Promise<ConnectionRecord | undefined> {
  const at = identifier.lastIndexOf('@');
  if (at < 1) return undefined;
  const domain = identifier
    .slice(at + 1)
    .trim()
    .toLowerCase();
  return (await listConnections(ctx.db)).find((c) => offeredTo(c, clientId) && c.emailDomains.includes(domain));
}
