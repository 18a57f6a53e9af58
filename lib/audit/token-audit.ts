/**
 * Token revocations in the audit log. oidc-provider emits
 * `access_token.destroyed` and `refresh_token.destroyed` when a token is
 * destroyed for cause: at the revocation endpoint (RFC 7009) and when a used
 * refresh token comes back (RFC 9700 §4.14.2, the whole grant goes). Expiry
 * does not emit them (expired rows are swept in bulk). `Provider.ctx` is the
 * request the event belongs to, for the route, client and IP.
 */
import Provider from 'oidc-provider';
import type { Database } from '../db/database.ts';
import { findAccount } from '../users/repository.ts';
import { recordAudit } from './log.ts';
import { requestContext } from '../platform/request-context.ts';

interface DestroyedToken {
  clientId?: string;
  accountId?: string;
}

const watched = new WeakSet<Provider>();

async function record(db: Database, kind: 'access_token' | 'refresh_token', token: DestroyedToken, ctx: Provider['app']['context'] | undefined): Promise<void> {
  const clientId = token.clientId ?? ctx?.oidc?.client?.clientId;
  if (!clientId) return;
  const clientName = ctx?.oidc?.client?.clientName ?? undefined;
  const via = ctx?.oidc?.route === 'revocation' ? ('revocation_endpoint' as const) : ('reuse_detected' as const);
  const context = ctx ? requestContext({ get: (name: string) => ctx.get(name) || null }) : undefined;
  let target: { type: 'user' | 'client'; id: string; label: string } = { type: 'client', id: clientId, label: clientName ?? clientId };
  if (token.accountId) {
    const account = await findAccount(db, token.accountId).catch(() => undefined);
    target = { type: 'user', id: token.accountId, label: account?.username ?? token.accountId };
  }
  await recordAudit(db, { action: 'token.revoked', actor: null, target, context, details: { clientId, ...(clientName ? { clientName } : {}), kind, via } });
}

/** Records every token the provider destroys for cause, in `db`'s audit log. Once per provider instance (the start-up asks for it). */
export function auditTokenRevocations(provider: Provider, db: Database): void {
  if (watched.has(provider)) return;
  watched.add(provider);
  // The events are emitted synchronously inside the request; the entry is written after, never failing it.
  const on = (kind: 'access_token' | 'refresh_token') => (token: DestroyedToken) => void record(db, kind, token, Provider.ctx).catch(() => undefined);
  provider.on('access_token.destroyed', on('access_token'));
  provider.on('refresh_token.destroyed', on('refresh_token'));
}
