/**
 * Fixtures for the account use cases' tests: a person, and provider artifacts
 * shaped as oidc-provider stores them (Session, Grant, codes and tokens), so
 * each test can build the account it needs. Not a test file itself.
 */
import { randomBytes } from 'node:crypto';
import { upsertArtifact } from '../db/artifacts.ts';
import type { Database } from '../db/database.ts';
import type { AuditBy } from '../audit/log.ts';
import { registerClient } from '../clients/manage.ts';
import { totpCode } from '../factors/totp.ts';
import { testContext } from '../testing.ts';
import { createUser } from '../users/manage.ts';
import type { AccountHolder } from './sessions.ts';
import { beginTotpEnrolment, confirmTotpEnrolment, twoStepStatus } from './two-step.ts';

export const tag = () => randomBytes(4).toString('hex');
const nowSeconds = () => Math.floor(Date.now() / 1000);

export async function person(db: Database, password = 'the current password') {
  const user = await createUser(db, { username: `p-${tag()}`, email: `p-${tag()}@example.com`, name: 'Pat', password });
  const holder: AccountHolder = { id: user.id, username: user.username };
  const by: AuditBy = { actor: { id: user.id, username: user.username }, context: { ip: '203.0.113.7', userAgent: 'account-test' } };
  return { user, holder, by, password };
}

export async function app(db: Database, name = `App ${tag()}`) {
  const { client } = await registerClient(db, { name, redirectUris: ['https://app.example/cb'] });
  return client;
}

/** A signed-in session; `ago` seconds since sign-in, `savedAgo` since it was last saved (used at the authorization endpoint). */
export async function session(db: Database, accountId: string, options: { clients?: string[]; ago?: number; savedAgo?: number; ttl?: number } = {}) {
  const uid = `uid-${tag()}`;
  const now = nowSeconds();
  const { ago = 3600, savedAgo = 60, ttl = 14 * 86_400 } = options;
  const exp = now - savedAgo + ttl;
  const authorizations = Object.fromEntries((options.clients ?? []).map((clientId) => [clientId, { sid: tag(), grantId: `g-${tag()}`, persistsLogout: true }]));
  await upsertArtifact(
    db.sql,
    'Session',
    `jti-${tag()}`,
    { iat: now - ago, exp, uid, kind: 'Session', accountId, loginTs: now - ago, authorizations },
    exp * 1000,
  );
  return uid;
}

export async function grant(db: Database, accountId: string, clientId: string, scope: string, options: { ago?: number } = {}) {
  const id = `grant-${tag()}`;
  const now = nowSeconds();
  const exp = now + 14 * 86_400;
  await upsertArtifact(
    db.sql,
    'Grant',
    id,
    { iat: now - (options.ago ?? 600), exp, jti: id, kind: 'Grant', accountId, clientId, openid: { scope } },
    exp * 1000,
  );
  return id;
}

/** An access or refresh token issued `ago` seconds ago from a grant; returns its value (the id, for opaque tokens). */
export async function token(
  db: Database,
  model: 'AccessToken' | 'RefreshToken',
  grantId: string,
  accountId: string,
  clientId: string,
  options: { ago?: number; sessionUid?: string } = {},
) {
  const id = `${model}-${tag()}`;
  const now = nowSeconds();
  const iat = now - (options.ago ?? 30);
  const exp = now + 3600;
  await upsertArtifact(
    db.sql,
    model,
    id,
    { iat, exp, jti: id, kind: model, accountId, clientId, grantId, gty: 'authorization_code', scope: 'openid', sessionUid: options.sessionUid },
    exp * 1000,
  );
  return id;
}

/** Turns TOTP on for `holder` through the account's use cases, as the person would; the secret. */
export async function enrolTestTotp(db: Database, holder: AccountHolder): Promise<string> {
  const ctx = { ...testContext(db), now: Date.now };
  await beginTotpEnrolment(ctx, holder);
  const pending = await twoStepStatus(ctx, holder);
  if (pending.status !== 'pending') throw new Error('enrolTestTotp: no pending set-up');
  const form = new FormData();
  form.append('code', totpCode(pending.secret, Date.now()));
  await confirmTotpEnrolment(ctx, holder, form);
  return pending.secret;
}
