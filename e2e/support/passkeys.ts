/**
 * Passkeys for the protocol tests: a person's passkey registered through
 * /account's use cases, answered by the software authenticator
 * (lib/factors/soft-authenticator.ts) for the server under test, and
 * the challenge a sign-in page handed out, read where the server keeps it (the
 * page carries it to the browser inside React's payload, which no test should parse).
 */
import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import { findArtifact } from '../../lib/db/artifacts.ts';
import { database } from '../../lib/db/database.ts';
import { finishPasskeyRegistration, startPasskeyRegistration } from '../../lib/account/passkeys.ts';
import { SoftAuthenticator } from '../../lib/factors/soft-authenticator.ts';
import { testContext } from '../../lib/testing.ts';
import { baseUrl, databaseUrl } from './fixtures.ts';

export const origin = new URL(baseUrl).origin;

/** Registers a passkey for `user` on a new software authenticator (or `authenticator`); returns it. */
export async function enrolPasskey(user: { id: string; username: string; password: string }, authenticator = new SoftAuthenticator()) {
  const ctx = { ...testContext(database(databaseUrl)), now: Date.now, config: { ...testContext(database(databaseUrl)).config, ISSUER: baseUrl } };
  const holder = { id: user.id, username: user.username };
  const form = new FormData();
  form.append('name', 'Test key');
  form.append('currentPassword', user.password);
  const started = await startPasskeyRegistration(ctx, holder, form);
  if (started.status !== 'options') throw new Error(`enrolPasskey: ${JSON.stringify(started)}`);
  const added = await finishPasskeyRegistration(ctx, holder, JSON.stringify(authenticator.create(started.options, origin)));
  if (added.status !== 'added') throw new Error(`enrolPasskey: ${JSON.stringify(added)}`);
  return authenticator;
}

/** The options the sign-in page of interaction `uid` (its URL's last segment) handed the browser. */
export async function pageOptions(interactionUrl: URL): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const uid = interactionUrl.pathname.split('/').pop() ?? '';
  const saved = await findArtifact(database(databaseUrl).sql, 'PasskeySignIn', uid, Date.now());
  if (typeof saved?.challenge !== 'string') throw new Error(`no passkey challenge for interaction ${uid}`);
  return { challenge: saved.challenge, rpId: new URL(baseUrl).hostname, allowCredentials: [], userVerification: 'required' };
}
