/**
 * The apps a person has connected (their consents, lib/consents/repository.ts, and
 * their grants at the provider, by client) and revoking one: the consent, its
 * grants, codes and tokens go, so its access tokens introspect as inactive at
 * once and its refresh tokens stop working; the next sign-in to it, from any
 * browser, asks for consent again.
 *
 * The portal's own client is listed (it is connected like any app) but not
 * revocable here: it is the app showing this page, first party, so the next
 * page load would sign it in again without asking. Signing out is how to end
 * its access.
 */
import { destroyGrantsOfAccountForClient, lastIssuedByClient, listGrantsOfAccount } from './repository.ts';
import { findClient } from '../clients/repository.ts';
import type { Database } from '../db/database.ts';
import { recordAuditBy, type AuditBy } from '../audit/log.ts';
import { PORTAL_CLIENT_ID } from '../clients/portal-client.ts';
import type { AccountHolder } from './sessions.ts';
import { httpsOnly } from '../oidc/return-link.ts';
import { deleteConsent, listConsents } from '../consents/repository.ts';

export interface ConnectedApp {
  clientId: string;
  name: string;
  logoUri: string | null;
  /** The OpenID Connect scopes granted, in the order first granted. */
  scopes: string[];
  /** When the person first connected it (the oldest grant still held). */
  grantedAt: Date | null;
  /** When it last got a code or token for the person, as far as the stored artifacts tell. */
  lastUsedAt: Date | null;
  firstParty: boolean;
  /** Gatehouse's own portal: listed, not revocable here. */
  portal: boolean;
}

const date = (epochSeconds: number | null | undefined) => (epochSeconds == null ? null : new Date(epochSeconds * 1000));

export async function connectedApps(db: Database, holder: Pick<AccountHolder, 'id'>, now: number): Promise<ConnectedApp[]> {
  const [grants, lastIssued, consents] = await Promise.all([
    listGrantsOfAccount(db, holder.id, now),
    lastIssuedByClient(db, holder.id, now),
    listConsents(db, holder.id),
  ]);
  const byClient = new Map<string, { scopes: string[]; grantedAt: number | null }>();
  // A consent outlives the sessions whose grants it made: the app stays connected without any.
  for (const consent of consents) byClient.set(consent.clientId, { scopes: [...consent.scopes], grantedAt: Math.floor(consent.createdAt.getTime() / 1000) });
  for (const grant of grants) {
    const entry = byClient.get(grant.clientId) ?? { scopes: [], grantedAt: grant.iat };
    for (const scope of grant.scope.split(' ').filter(Boolean)) if (!entry.scopes.includes(scope)) entry.scopes.push(scope);
    if (grant.iat !== null && (entry.grantedAt === null || grant.iat < entry.grantedAt)) entry.grantedAt = grant.iat;
    byClient.set(grant.clientId, entry);
  }
  const apps = await Promise.all(
    [...byClient].map(async ([clientId, entry]) => {
      const client = await findClient(db, clientId);
      return {
        clientId,
        name: client?.name ?? clientId,
        logoUri: httpsOnly(client?.logoUri) ?? null,
        scopes: entry.scopes,
        grantedAt: date(entry.grantedAt),
        lastUsedAt: date(lastIssued.get(clientId)),
        firstParty: client?.firstParty ?? false,
        portal: clientId === PORTAL_CLIENT_ID,
      } satisfies ConnectedApp;
    }),
  );
  // The apps most recently used first; the portal (this page) last.
  const recency = (app: ConnectedApp) => (app.lastUsedAt ?? app.grantedAt)?.getTime() ?? 0;
  return apps.sort((a, b) => Number(a.portal) - Number(b.portal) || recency(b) - recency(a));
}

export type AppRevocation = { status: 'revoked'; name: string } | { status: 'refused'; message: string } | { status: 'not_found' };

export async function revokeConnectedApp(db: Database, holder: AccountHolder, clientId: string, by?: AuditBy): Promise<AppRevocation> {
  if (clientId === PORTAL_CLIENT_ID) {
    return { status: 'refused', message: 'This is the Gatehouse portal you are using now. To end its access, sign out.' };
  }
  const client = clientId ? await findClient(db, clientId) : undefined;
  const consented = await deleteConsent(db, holder.id, clientId);
  const { grantIds, removed } = await destroyGrantsOfAccountForClient(db, holder.id, clientId);
  if (!consented && grantIds.length === 0 && removed === 0) return { status: 'not_found' };
  const name = client?.name ?? clientId;
  await recordAuditBy(db, by, {
    action: 'consent.revoked',
    target: { type: 'client', id: clientId, label: name },
    details: { clientId, clientName: name, accountId: holder.id, ...(grantIds.length === 1 ? { grantId: grantIds[0] } : {}) },
  });
  return { status: 'revoked', name };
}

/**
 * The same, done by an administrator (the portal's user page, the admin API):
 * recorded about the person (on whom), not the app. The portal's own grant is
 * refused here too: end the person's sessions, or disable them, instead.
 */
export async function revokeAppOfUser(db: Database, holder: AccountHolder, clientId: string, by?: AuditBy): Promise<AppRevocation> {
  const result = await revokeConnectedApp(db, holder, clientId);
  if (result.status === 'revoked') {
    await recordAuditBy(db, by, {
      action: 'consent.revoked',
      target: { type: 'user', id: holder.id, label: holder.username },
      details: { clientId, clientName: result.name, accountId: holder.id },
    });
  }
  return result;
}
