/**
 * The admin portal's page of initial access tokens for dynamic client registration (lib/registration/tokens.ts):
 * list, issue (the token shown once), revoke. Each takes the admin requireAdmin()/asAdmin() returned; the use
 * cases record who did it in the audit log. Expected failures come back as values for the form.
 */
import 'server-only';
import { serverContext } from '../../context.ts';
import { env } from '../../config/env.ts';
import { formProblems, type FieldProblems } from '../../platform/forms.ts';
import {
  findInitialAccessToken,
  type InitialAccessTokenRecord,
  issueInitialAccessToken,
  listInitialAccessTokens,
  revokeInitialAccessToken,
} from '../../registration/tokens.ts';
import type { AdminUser } from './access.ts';
import { byAdmin } from './audit-context.ts';
import {
  REGISTRATION_TOKEN_FIELDS,
  readRegistrationTokenForm,
  type RegistrationTokenField,
  type RegistrationTokenFormValues,
} from './registration-token-fields.ts';

export type RegistrationTokenFormState =
  | { status: 'editing'; values: RegistrationTokenFormValues; problems: FieldProblems<RegistrationTokenField> }
  | { status: 'issued'; token: string; name: string };

/** The tokens, newest first, and how the instance has registration set (DYNAMIC_REGISTRATION). */
export async function listRegistrationTokensFor(
  _admin: AdminUser,
): Promise<{ mode: 'off' | 'token' | 'open'; tokens: InitialAccessTokenRecord[]; now: number }> {
  const { db, now } = serverContext();
  return { mode: env().DYNAMIC_REGISTRATION, tokens: await listInitialAccessTokens(db), now: now() };
}

export async function issueRegistrationTokenFromForm(admin: AdminUser, form: FormData): Promise<RegistrationTokenFormState> {
  const { values, input } = readRegistrationTokenForm(form);
  const { db, now } = serverContext();
  try {
    const { token, record } = await issueInitialAccessToken(db, input, { now: now(), by: await byAdmin(admin) });
    return { status: 'issued', token, name: record.name };
  } catch (error) {
    return { status: 'editing', values, problems: formProblems(error, REGISTRATION_TOKEN_FIELDS) };
  }
}

/** Nothing registers with it any more; the clients it registered stay. Revoking a revoked one is refused. */
export async function revokeRegistrationTokenFor(admin: AdminUser, id: string): Promise<{ status: 'done' | 'refused' | 'not_found' }> {
  const { db, now } = serverContext();
  const token = await findInitialAccessToken(db, id);
  if (!token) return { status: 'not_found' };
  if (token.revokedAt) return { status: 'refused' };
  await revokeInitialAccessToken(db, id, { now: now(), by: await byAdmin(admin) });
  return { status: 'done' };
}
