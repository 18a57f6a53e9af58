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

export async function connectionsFor(ctx: { db: Database }, clientId: string): Promise<OfferedConnection[]> {
  const all = await listConnections(ctx.db);
  return all.filter((c) => offeredTo(c, clientId)).map(({ slug, displayName, icon }) => ({ slug, displayName, icon }));
}
