/**
 * A person's own passkeys on /account: list them, add one, remove one.
 *
 * Adding takes two requests: the name and the current password first (a
 * passkey signs in on its own, so a session left open must not be enough to
 * plant one: verifyCurrentPassword, throttled), which hand the browser its
 * options; then the browser's answer, checked against the challenge those
 * options carried. The first second factor a person adds comes with their ten
 * recovery codes, shown once, as when TOTP is turned on. Removing one needs the
 * password again. Nothing typed is sent back.
 */
import type { PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/server';
import { recordAuditBy, type AuditBy } from '../audit/log.ts';
import { addProblem, formText, type FieldProblems, type ProblemCode } from '../platform/forms.ts';
import { deletePasskey, insertPasskey, listPasskeys, type PasskeySummary } from '../factors/repository.ts';
import {
  checkRegistration,
  PASSKEY_NAME_MAX,
  PASSKEY_RESPONSE_MAX_CHARS,
  registrationOptions,
  type PasskeyContext,
  type PasskeyProblem,
} from '../factors/passkeys.ts';
import { regenerateRecoveryCodes } from '../factors/recovery-codes.ts';
import { hasSecondFactor, type FactorContext } from '../factors/second-step.ts';
import type { AccountHolder } from './sessions.ts';
import { passwordProblem, type PasswordProtectedState } from './two-step.ts';

export type { PasskeySummary };

type Context = FactorContext & PasskeyContext;

export function passkeysOf(ctx: Pick<Context, 'db'>, holder: AccountHolder): Promise<PasskeySummary[]> {
  return listPasskeys(ctx.db, holder.id);
}

export type PasskeyStart =
  | { status: 'invalid'; errors: FieldProblems<'name' | 'currentPassword'> }
  /** What the browser passes to navigator.credentials.create(). */
  | { status: 'options'; options: PublicKeyCredentialCreationOptionsJSON };

/** Step one of adding a passkey: its name and the current password; the options for the browser. */
export async function startPasskeyRegistration(ctx: Context, holder: AccountHolder, form: FormData, by?: AuditBy): Promise<PasskeyStart> {
  const name = formText(form, 'name', 4 * PASSKEY_NAME_MAX).trim();
  let errors: FieldProblems<'name' | 'currentPassword'> = {};
  if (!name) errors = addProblem(errors, 'name', { code: 'required' });
  else if (name.length > PASSKEY_NAME_MAX) errors = addProblem(errors, 'name', { code: 'too_long', values: { maximum: PASSKEY_NAME_MAX } });
  if (errors.name) return { status: 'invalid', errors };
  const problem = await passwordProblem(ctx, holder, form, by);
  if (problem) return { status: 'invalid', errors: problem };
  return { status: 'options', options: await registrationOptions(ctx, holder, name) };
}

export type PasskeyAdded =
  | { status: 'invalid'; errors: FieldProblems<'form'> }
  /** `recoveryCodes`: shown once, when this passkey turned two-step verification on. */
  | { status: 'added'; name: string; recoveryCodes?: string[] };

const registrationProblems: Record<PasskeyProblem, ProblemCode> = {
  passkey_expired: 'passkey_expired',
  passkey_invalid: 'passkey_invalid',
  passkey_unknown: 'passkey_failed',
  passkey_other_account: 'passkey_failed',
  passkey_failed: 'passkey_failed',
};

/** Step two: the browser's answer (JSON, as @simplewebauthn/browser returns it). */
export async function finishPasskeyRegistration(ctx: Context, holder: AccountHolder, responseText: string, by?: AuditBy): Promise<PasskeyAdded> {
  const hadSecondFactor = await hasSecondFactor(ctx.db, holder.id);
  const checked = await checkRegistration(ctx, holder, responseText.slice(0, PASSKEY_RESPONSE_MAX_CHARS + 1));
  if (checked.status === 'refused') return { status: 'invalid', errors: { form: [{ code: registrationProblems[checked.problem] }] } };
  if (!(await insertPasskey(ctx.db, checked.passkey))) return { status: 'invalid', errors: { form: [{ code: 'passkey_registered' }] } };
  const recoveryCodes = hadSecondFactor ? undefined : await regenerateRecoveryCodes(ctx.db, holder.id);
  await recordAuditBy(ctx.db, by, { action: 'factor.enrolled', target: targetOf(holder), details: { kind: 'passkey', name: checked.passkey.name } });
  return { status: 'added', name: checked.passkey.name, recoveryCodes };
}

/** Removes one of the person's passkeys (form field `passkey`: its id) after their current password. */
export async function removeOwnPasskey(ctx: Context, holder: AccountHolder, form: FormData, by?: AuditBy): Promise<PasswordProtectedState> {
  const id = formText(form, 'passkey', 1400);
  const problem = await passwordProblem(ctx, holder, form, by);
  if (problem) return { status: 'invalid', errors: problem };
  const name = id ? await deletePasskey(ctx.db, holder.id, id) : undefined;
  if (name === undefined) return { status: 'invalid', errors: { form: [{ code: 'passkey_removed' }] } };
  await recordAuditBy(ctx.db, by, { action: 'factor.removed', target: targetOf(holder), details: { kind: 'passkey', name } });
  return { status: 'removed' };
}

const targetOf = (holder: AccountHolder) => ({ type: 'user' as const, id: holder.id, label: holder.username });
