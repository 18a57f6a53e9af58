/**
 * How a client's sign-in page lets people in, beside the connections whose allow lists name it
 * (prisma `ClientSignIn`): today whether it has the username and password form. A client whose
 * people all come through their company's provider turns it off; its page then shows only the
 * connection buttons (and the passkey button when passkeys are on), and a password posted for it
 * anyway is refused by the server, not only hidden (lib/sign-in/interactions.ts signIn).
 * No row is the default: the form is shown. Changes are audited as `client.updated`.
 */
import { recordAuditBy, type AuditBy } from '../audit/log.ts';
import { findClient } from '../clients/repository.ts';
import type { Database } from '../db/database.ts';
import { NotFound } from '../platform/errors.ts';
import { listConnections } from './repository.ts';

/** A client's sign-in page as the portal, the CLI and the admin API show it. */
export interface ClientSignInRecord {
  clientId: string;
  clientName: string;
  /** The username and password form is on its sign-in page, and a password is accepted for it. */
  passwordForm: boolean;
  /** The slugs of the connections whose allow lists name it (on or off). */
  connections: string[];
}

/** Whether `clientId`'s sign-in page has the password form (and accepts a password). */
export async function passwordFormOffered(db: Database, clientId: string): Promise<boolean> {
  const row = await db.prisma.clientSignIn.findUnique({ where: { clientId }, select: { passwordForm: true } });
  return row?.passwordForm ?? true;
}

/**
 * The sign-in pages where the switch matters: the clients a connection names, and those with the form
 * off, in the clients' order. Only those rows are read (a deployment may have thousands of clients).
 */
export async function listClientSignIn(db: Database, only?: string): Promise<ClientSignInRecord[]> {
  const [connections, off] = await Promise.all([
    listConnections(db),
    db.prisma.clientSignIn.findMany({ where: { passwordForm: false, ...(only ? { clientId: only } : {}) }, select: { clientId: true } }),
  ]);
  const offIds = new Set(off.map((row) => row.clientId));
  const ids = only ? [only] : [...new Set([...connections.flatMap((c) => c.clientIds), ...offIds])];
  const clients = await db.prisma.client.findMany({ where: { id: { in: ids } }, select: { id: true, name: true }, orderBy: { createdAt: 'asc' } });
  return clients.map((client) => ({
    clientId: client.id,
    clientName: client.name,
    passwordForm: !offIds.has(client.id),
    connections: connections.filter((c) => c.clientIds.includes(client.id)).map((c) => c.slug),
  }));
}

export async function findClientSignIn(db: Database, clientId: string): Promise<ClientSignInRecord> {
  const [found] = await listClientSignIn(db, clientId);
  if (!found) throw new NotFound(`no client with id ${clientId}`);
  return found;
}

/** Turns `clientId`'s password form on or off; audited as `client.updated` when it changed. */
export async function setPasswordForm(db: Database, clientId: string, passwordForm: boolean, by?: AuditBy): Promise<ClientSignInRecord> {
  const client = await findClient(db, clientId);
  if (!client) throw new NotFound(`no client with id ${clientId}`);
  const before = await passwordFormOffered(db, clientId);
  await db.prisma.clientSignIn.upsert({ where: { clientId }, create: { clientId, passwordForm }, update: { passwordForm } });
  if (before !== passwordForm) {
    await recordAuditBy(db, by, {
      action: 'client.updated',
      target: { type: 'client', id: client.id, label: client.name },
      details: { changed: ['passwordForm'] },
    });
  }
  return findClientSignIn(db, clientId);
}
