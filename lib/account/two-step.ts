/**
 * A person's own two-step verification on /account: turn TOTP on (a pending
 * secret, shown until a first code confirms it), see how many recovery codes
 * are left, get new ones, turn it off. Getting new codes and turning it off
 * need the current password again (verifyCurrentPassword: throttled, a wrong
 * one audited), so a session left open is not enough to weaken the account.
 * Recovery codes are returned once, in the state that follows confirming or
 * regenerating, and are never readable again. Nothing typed is sent back.
 */
import { recordAuditBy, type AuditBy } from '../audit/log.ts';
import { verifyCurrentPassword } from '../sign-in/authentication.ts';
import { addProblem, formText, type FieldProblems, throttledProblem } from '../platform/forms.ts';
import { passwordPolicy } from '../platform/passwords.ts';
import { confirmTotp, deleteTotp, findTotpFactor, findTotpSecret, insertPendingTotp } from '../factors/repository.ts';
import { recoveryCodesLeft, regenerateRecoveryCodes } from '../factors/recovery-codes.ts';
import { hasSecondFactor, type FactorContext } from '../factors/second-step.ts';
import { matchingStep, newTotpSecret, readTotpCode } from '../factors/totp.ts';
import type { AccountHolder } from './sessions.ts';

/** What the page shows: the pending secret only while enrolment waits for its first code. */
export type TwoStepStatus = { status: 'off' } | { status: 'pending'; secret: string } | { status: 'on'; since: Date; recoveryCodesLeft: number };

export async function twoStepStatus(ctx: Pick<FactorContext, 'db'>, holder: AccountHolder): Promise<TwoStepStatus> {
  const factor = await findTotpFactor(ctx.db, holder.id);
  if (!factor) return { status: 'off' };
  if (factor.confirmedAt) return { status: 'on', since: factor.confirmedAt, recoveryCodesLeft: await recoveryCodesLeft(ctx.db, holder.id) };
  const pending = await findTotpSecret(ctx.db, holder.id);
  return pending ? { status: 'pending', secret: pending.secret } : { status: 'off' };
}

/** Starts enrolment with a new secret; a second start (the form posted twice) keeps the first one's. */
export async function beginTotpEnrolment(ctx: Pick<FactorContext, 'db'>, holder: AccountHolder): Promise<void> {
  await insertPendingTotp(ctx.db, holder.id, newTotpSecret());
}

/** Starts enrolment over with a new secret: only while it is pending (a confirmed factor is removed with the password). */
export async function restartTotpEnrolment(ctx: Pick<FactorContext, 'db'>, holder: AccountHolder): Promise<void> {
  const factor = await findTotpFactor(ctx.db, holder.id);
  if (factor && !factor.confirmedAt) await deleteTotp(ctx.db, holder.id);
  await beginTotpEnrolment(ctx, holder);
}

export type TwoStepState<F extends string> =
  | { status: 'idle' }
  /** In no language: the forms word them (lib/i18n/problems.ts). */
  | { status: 'invalid'; errors: FieldProblems<F> }
  /** Shown once: the page never reads them again. */
  | { status: 'codes'; recoveryCodes: string[]; enrolled: boolean }
  | { status: 'removed' };

export type ConfirmState = TwoStepState<'code'>;
export type PasswordProtectedState = TwoStepState<'currentPassword'>;

/** Turns TOTP on with a first code, and returns the ten recovery codes to show once. */
export async function confirmTotpEnrolment(ctx: FactorContext, holder: AccountHolder, form: FormData, by?: AuditBy): Promise<ConfirmState> {
  const read = readTotpCode(formText(form, 'code', 64));
  if ('problem' in read) return { status: 'invalid', errors: { code: [{ code: read.problem }] } };
  const factor = await findTotpSecret(ctx.db, holder.id);
  if (!factor) return { status: 'invalid', errors: { form: [{ code: 'enrolment_missing' }] } };
  if (factor.confirmedAt) return { status: 'invalid', errors: { form: [{ code: 'two_step_on' }] } };
  const now = ctx.now();
  const step = matchingStep(factor.secret, read.code, now);
  if (step === undefined) return { status: 'invalid', errors: { code: [{ code: 'wrong_code' }] } };
  if (!(await confirmTotp(ctx.db, holder.id, step, new Date(now)))) {
    return { status: 'invalid', errors: { form: [{ code: 'two_step_on' }] } };
  }
  const recoveryCodes = await regenerateRecoveryCodes(ctx.db, holder.id);
  await recordFor(ctx, holder, by, 'factor.enrolled');
  return { status: 'codes', recoveryCodes, enrolled: true };
}

/** The current password, checked (throttled) before a change that weakens or resets the second step, or adds a way in. */
export async function passwordProblem(
  ctx: FactorContext,
  holder: AccountHolder,
  form: FormData,
  by?: AuditBy,
): Promise<FieldProblems<'currentPassword'> | undefined> {
  const password = formText(form, 'currentPassword', passwordPolicy.maxLength + 1);
  if (!password) return { currentPassword: [{ code: 'required' }] };
  const checked = await verifyCurrentPassword(ctx, holder, password, by?.context);
  if (checked.ok) return undefined;
  return addProblem({}, 'currentPassword', checked.refusal ? throttledProblem(checked.refusal) : { code: 'wrong_password' });
}

export async function regenerateOwnRecoveryCodes(ctx: FactorContext, holder: AccountHolder, form: FormData, by?: AuditBy): Promise<PasswordProtectedState> {
  if (!(await hasSecondFactor(ctx.db, holder.id))) return { status: 'invalid', errors: { form: [{ code: 'no_second_factor' }] } };
  const problem = await passwordProblem(ctx, holder, form, by);
  if (problem) return { status: 'invalid', errors: problem };
  const recoveryCodes = await regenerateRecoveryCodes(ctx.db, holder.id);
  await recordFor(ctx, holder, by, 'recovery_codes.regenerated', recoveryCodes.length);
  return { status: 'codes', recoveryCodes, enrolled: false };
}

export async function removeOwnTotp(ctx: FactorContext, holder: AccountHolder, form: FormData, by?: AuditBy): Promise<PasswordProtectedState> {
  const factor = await findTotpFactor(ctx.db, holder.id);
  if (!factor?.confirmedAt) return { status: 'invalid', errors: { form: [{ code: 'two_step_off' }] } };
  const problem = await passwordProblem(ctx, holder, form, by);
  if (problem) return { status: 'invalid', errors: problem };
  if (await deleteTotp(ctx.db, holder.id)) await recordFor(ctx, holder, by, 'factor.removed');
  return { status: 'removed' };
}

async function recordFor(
  ctx: Pick<FactorContext, 'db'>,
  holder: AccountHolder,
  by: AuditBy | undefined,
  action: 'factor.enrolled' | 'factor.removed' | 'recovery_codes.regenerated',
  count = 0,
): Promise<void> {
  const target = { type: 'user' as const, id: holder.id, label: holder.username };
  if (action === 'recovery_codes.regenerated') await recordAuditBy(ctx.db, by, { action, target, details: { count } });
  else await recordAuditBy(ctx.db, by, { action, target, details: { kind: 'totp' } });
}
