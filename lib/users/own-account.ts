/**
 * A person's own data on /account/data: what Gatehouse holds about them, to download as JSON
 * (profile, groups and roles, identities at other providers, second factors without their secrets,
 * sessions, connected apps, the audit entries about them), and deleting their own account.
 *
 * Deleting needs the current password again (throttled, a wrong one audited, as every sensitive
 * /account change) and a ticked confirmation. Every session ends first (the apps signed in through
 * them get their back-channel logout tokens where they registered for them), then every token and
 * grant, then the account with its factors, links and memberships (lib/users/manage.ts eraseAccount, as when an
 * admin deletes it). The audit log keeps a pseudonymous entry: the account's id, not its username. The last enabled
 * owner cannot leave. ACCOUNT_SELF_DELETE=off leaves deleting to admins.
 */
import { connectedApps } from '../account/apps.ts';
import { activeSessions, type AccountHolder } from '../account/sessions.ts';
import { passwordProblem } from '../account/two-step.ts';
import { auditEventsFor, recordAuditBy, type AuditBy } from '../audit/log.ts';
import { accessOf } from '../authorization/repository.ts';
import type { Database } from '../db/database.ts';
import type { FactorContext } from '../factors/second-step.ts';
import { listIdentitiesOf } from '../federation/repository.ts';
import { formText, type FieldProblems } from '../platform/forms.ts';
import { eraseAccount, secondFactorsOf } from './manage.ts';
import { countEnabledOwners, findCredentialsById, findUserById } from './repository.ts';

/** The most audit entries a download holds (newest first): a person's whole history, for all but the busiest. */
export const OWN_AUDIT_ENTRIES = 1000;

const iso = (date: Date | null | undefined) => (date ? date.toISOString() : null);

/** Everything Gatehouse holds about the person, as the JSON they download; never a hash, secret, code or token. */
export async function ownData(db: Database, holder: AccountHolder, sessionTtlSeconds: number, now: number) {
  const user = await findUserById(db, holder.id);
  if (!user) return undefined;
  const [access, identities, factors, sessions, apps, audit] = await Promise.all([
    accessOf(db, user.id),
    listIdentitiesOf(db, user.id),
    secondFactorsOf(db, user.id),
    activeSessions(db, holder, sessionTtlSeconds, now),
    connectedApps(db, holder, now),
    auditEventsFor(db, { involvingUserId: user.id }, OWN_AUDIT_ENTRIES),
  ]);
  return {
    exported_at: new Date(now).toISOString(),
    profile: {
      sub: user.id,
      username: user.username,
      name: user.name,
      email: user.email,
      email_verified: user.emailVerified,
      has_password: !user.invited,
      role: user.role,
      created_at: iso(user.createdAt),
      updated_at: iso(user.updatedAt),
    },
    groups: access.groups,
    roles: access.roles,
    identities: identities.map((i) => ({
      connection: i.connectionName,
      issuer: i.issuer,
      subject: i.subject,
      email: i.email,
      linked_at: iso(i.createdAt),
      last_used_at: iso(i.lastUsedAt),
    })),
    second_factors: {
      authenticator_app: factors.totp ? { since: iso(factors.since) } : null,
      passkeys: factors.passkeys.map((p) => ({ name: p.name, created_at: iso(p.createdAt), last_used_at: iso(p.lastUsedAt) })),
      recovery_codes_left: factors.recoveryCodesLeft,
    },
    sessions: sessions.map((s) => ({
      signed_in_at: iso(s.signedInAt),
      last_active_at: iso(s.lastActiveAt),
      expires_at: iso(s.expiresAt),
      apps: s.apps,
      browser: s.browser,
      ip: s.ip,
    })),
    connected_apps: apps.map((a) => ({ client_id: a.clientId, name: a.name, scopes: a.scopes, granted_at: iso(a.grantedAt), last_used_at: iso(a.lastUsedAt) })),
    audit_entries: audit.map((e) => ({
      at: e.at.toISOString(),
      action: e.action,
      actor: e.actor?.username ?? null,
      target: e.target?.label ?? null,
      ip: e.ip,
      user_agent: e.userAgent,
      details: e.details,
    })),
  };
}

export type OwnData = NonNullable<Awaited<ReturnType<typeof ownData>>>;

/**
 * `refused`: a rule keeps the account (`only_owner`), it has no password to confirm with (`no_password`), or the
 * operator turned self-deletion off (`turned_off`, ACCOUNT_SELF_DELETE=off).
 */
export type DeleteOwnState =
  | { status: 'idle' }
  | { status: 'invalid'; errors: FieldProblems<'currentPassword' | 'confirm'> }
  | { status: 'refused'; reason: 'only_owner' | 'no_password' | 'turned_off' }
  | { status: 'deleted' };

/** Deletes the person's own account, after their password and a ticked confirmation. */
export async function deleteOwnAccount(
  ctx: FactorContext & { selfDelete: boolean },
  holder: AccountHolder,
  form: FormData,
  by?: AuditBy,
): Promise<DeleteOwnState> {
  const { db } = ctx;
  // ACCOUNT_SELF_DELETE=off: the page shows no form, and one posted anyway is refused here.
  if (!ctx.selfDelete) return { status: 'refused', reason: 'turned_off' };
  const user = await findUserById(db, holder.id);
  if (!user) return { status: 'deleted' };
  // A person who signs in only elsewhere or with a passkey has no password to type: an admin deletes them.
  if (!(await findCredentialsById(db, user.id))?.passwordHash) return { status: 'refused', reason: 'no_password' };
  if (user.role === 'owner' && !user.disabled && (await countEnabledOwners(db)) <= 1) return { status: 'refused', reason: 'only_owner' };
  const problem = await passwordProblem(ctx, holder, form, by);
  const confirmed = formText(form, 'confirm', 10) !== '';
  if (problem || !confirmed) return { status: 'invalid', errors: { ...problem, ...(confirmed ? {} : { confirm: [{ code: 'unconfirmed' }] }) } };
  // Pseudonymous: the id stays (other entries name it), the username goes, as actor too.
  const pseudonym = { id: user.id, username: 'deleted account' };
  await eraseAccount(db, user.id, by && { ...by, actor: pseudonym }, true);
  return { status: 'deleted' };
}

/** The download, recorded as the person's own action. */
export async function recordOwnDataExported(db: Database, holder: AccountHolder, by?: AuditBy): Promise<void> {
  await recordAuditBy(db, by, { action: 'user.data_exported', target: { type: 'user', id: holder.id, label: holder.username }, details: {} });
}
