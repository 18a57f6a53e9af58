/**
 * The second step of a sign-in: a TOTP code, a passkey's answer or a recovery
 * code from a person whose password was right. Guesses go through the throttle's second-factor
 * counters (lib/platform/throttle.ts: the account's password limits, counted
 * apart), like passwords: refused without checking while the account waits,
 * each failure counted, a success clearing the count. Each outcome is in the
 * audit log; never the code typed.
 */
import type { Database } from '../db/database.ts';
import { acceptTotpStep, findTotpSecret } from './repository.ts';
import { recordAudit, type RequestContext } from '../audit/log.ts';
import type { secondFactorMethods } from '../audit/events.ts';
import { recordLockout } from '../sign-in/authentication.ts';
import type { UnknownUsernameFailures } from '../platform/source-counts.ts';
import { checkSignIn, type PasskeyContext } from './passkeys.ts';
import type { Refusal, Throttle } from '../platform/throttle.ts';
import { readRecoveryCode, spendRecovery, type RecoveryCodeProblem } from './recovery-codes.ts';
import { matchingStep, readTotpCode, type TotpCodeProblem } from './totp.ts';

/** What checking and changing factors needs: the database, the throttle and the clock (lib/context.ts has all three). */
export interface FactorContext {
  db: Database;
  throttle: Throttle;
  /** Epoch milliseconds. */
  now: () => number;
}

/**
 * The second step of a sign-in needs the issuer too (the passkeys' relying party), and the
 * process's aggregation of refused attempts (lib/sign-in/failures.ts, lib/context.ts).
 */
export type SecondStepContext = FactorContext & PasskeyContext & { signInFailures: UnknownUsernameFailures };

export type SecondFactorMethod = (typeof secondFactorMethods)[number];

export type SecondStepOutcome =
  | { status: 'verified'; method: SecondFactorMethod /** Recovery codes left, after using one. */; remaining?: number }
  /** The input is not a code (or passkey answer) at all, or answers no challenge: nothing was counted. */
  | { status: 'refused'; problem: TotpCodeProblem | RecoveryCodeProblem | 'passkey_expired' | 'passkey_invalid' }
  | { status: 'refused'; problem: 'wrong_code' | 'code_used' | 'passkey_failed' | 'passkey_other_account' }
  | { status: 'throttled'; refusal: Refusal };

/** What one check of a code or passkey answer found, before the throttle's part. */
type FactorCheck = Exclude<SecondStepOutcome, { status: 'throttled' }>;

export { hasSecondFactor } from './repository.ts';

interface Person {
  id: string;
  username: string;
}

/**
 * What the person gave: a code they typed, or the browser's answer (JSON) to
 * the passkey challenge of interaction `uid`.
 */
export type SecondStepInput = { method: 'totp' | 'recovery_code'; code: string } | { method: 'passkey'; uid: string; response: string };

/** `client`: the client the sign-in is for, as the audit log names it. */
export async function verifySecondStep(
  ctx: SecondStepContext,
  person: Person,
  input: SecondStepInput,
  context: Partial<RequestContext>,
  client: { clientId?: string; clientName?: string } = {},
): Promise<SecondStepOutcome> {
  const read = input.method === 'passkey' ? { code: '' } : input.method === 'totp' ? readTotpCode(input.code) : readRecoveryCode(input.code);
  if ('problem' in read) return { status: 'refused', problem: read.problem };
  const target = { type: 'user' as const, id: person.id, label: person.username };
  const failed = (reason: 'wrong' | 'replayed' | 'other_account') =>
    recordAudit(ctx.db, { action: 'sign_in.second_factor_failed', actor: person, target, context, details: { method: input.method, reason, ...client } });

  const check = await ctx.throttle.beforeSecondFactor(person.id);
  if (!check.allowed) {
    // A refused attempt checks nothing and can come as fast as a client sends: one entry a minute per source and account, with a count.
    const request = { ip: context.ip ?? null, userAgent: context.userAgent ?? null, requestId: context.requestId };
    await ctx.signInFailures.counted(`second_factor_throttled ${person.id}`, request, (count) =>
      recordAudit(ctx.db, {
        action: 'sign_in.second_factor_failed',
        actor: person,
        target,
        context: request,
        details: { method: input.method, reason: 'throttled', count, ...client },
      }),
    );
    return { status: 'throttled', refusal: check };
  }
  const now = ctx.now();
  const outcome =
    input.method === 'passkey'
      ? await checkPasskey(ctx, person.id, input)
      : input.method === 'totp'
        ? await checkTotp(ctx.db, person.id, read.code, now)
        : await checkRecovery(ctx.db, person.id, read.code, now);
  if (outcome.status !== 'verified' && (outcome.problem === 'passkey_expired' || outcome.problem === 'passkey_invalid')) return outcome;
  if (outcome.status !== 'verified') {
    const counted = await ctx.throttle.secondFactorFailed(person.id);
    await failed(outcome.problem === 'code_used' ? 'replayed' : outcome.problem === 'passkey_other_account' ? 'other_account' : 'wrong');
    if (counted.locked && counted.wait) await recordLockout(ctx.db, person, counted.wait.until, context);
    return outcome;
  }
  await ctx.throttle.secondFactorSucceeded(person.id);
  if (outcome.remaining !== undefined) {
    await recordAudit(ctx.db, { action: 'recovery_code.used', actor: person, target, context, details: { remaining: outcome.remaining, ...client } });
  }
  return outcome;
}

async function checkTotp(db: Database, accountId: string, code: string, now: number): Promise<FactorCheck> {
  const factor = await findTotpSecret(db, accountId);
  const step = factor?.confirmedAt ? matchingStep(factor.secret, code, now) : undefined;
  if (step === undefined) return { status: 'refused', problem: 'wrong_code' };
  // One conditional UPDATE: of two requests with one code, exactly one moves the step on.
  return (await acceptTotpStep(db, accountId, step)) ? { status: 'verified', method: 'totp' } : { status: 'refused', problem: 'code_used' };
}

async function checkPasskey(ctx: SecondStepContext, accountId: string, input: { uid: string; response: string }): Promise<FactorCheck> {
  const checked = await checkSignIn(ctx, input.uid, input.response, accountId);
  if (checked.status === 'verified') return { status: 'verified', method: 'passkey' };
  // A credential no account has is as wrong as another account's: counted alike.
  return { status: 'refused', problem: checked.problem === 'passkey_unknown' ? 'passkey_failed' : checked.problem };
}

async function checkRecovery(db: Database, accountId: string, code: string, now: number): Promise<FactorCheck> {
  const spent = await spendRecovery(db, accountId, code, new Date(now));
  return spent ? { status: 'verified', method: 'recovery_code', remaining: spent.remaining } : { status: 'refused', problem: 'wrong_code' };
}
