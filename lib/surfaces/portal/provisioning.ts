/**
 * The admin portal's page of SCIM provisioning clients' tokens (lib/scim/tokens.ts): list, issue (the token
 * shown once), revoke. Each takes the admin requireAdmin()/asAdmin() returned; the use cases record who did it
 * in the audit log. Expected failures come back as values for the form.
 */
import 'server-only';
import { serverContext } from '../../context.ts';
import { formProblems, formText, type FieldProblems } from '../../platform/forms.ts';
import { findScimToken, issueScimToken, listScimTokens, revokeScimToken, type ScimTokenRecord } from '../../scim/tokens.ts';
import type { AdminUser } from './access.ts';
import { byAdmin } from './audit-context.ts';

export const SCIM_TOKEN_FIELDS = ['name'] as const;
export type ScimTokenField = (typeof SCIM_TOKEN_FIELDS)[number];

export type ScimTokenFormState =
  | { status: 'editing'; name: string; problems: FieldProblems<ScimTokenField> }
  | { status: 'issued'; token: string; name: string };

/** The tokens, newest first, whether the instance serves SCIM (SCIM=on), and its base URL for the clients. */
export async function listScimTokensFor(_admin: AdminUser): Promise<{ enabled: boolean; baseUrl: string; tokens: ScimTokenRecord[] }> {
  const { db, config } = serverContext();
  return { enabled: config.SCIM === 'on', baseUrl: `${config.ISSUER.replace(/\/$/, '')}/scim/v2`, tokens: await listScimTokens(db) };
}

export async function issueScimTokenFromForm(admin: AdminUser, form: FormData): Promise<ScimTokenFormState> {
  const name = formText(form, 'name', 200);
  try {
    const { token, record } = await issueScimToken(serverContext().db, { name }, await byAdmin(admin));
    return { status: 'issued', token, name: record.name };
  } catch (error) {
    return { status: 'editing', name, problems: formProblems(error, SCIM_TOKEN_FIELDS) };
  }
}

/** The client's next request is refused; what it provisioned stays. Revoking a revoked one is refused. */
export async function revokeScimTokenFor(admin: AdminUser, id: string): Promise<{ status: 'done' | 'refused' | 'not_found' }> {
  const { db, now } = serverContext();
  const token = await findScimToken(db, id);
  if (!token) return { status: 'not_found' };
  if (token.revokedAt) return { status: 'refused' };
  await revokeScimToken(db, id, { now: now(), by: await byAdmin(admin) });
  return { status: 'done' };
}
