/**
 * Step-up: when a sign-in must end with a second factor (acr `urn:gatehouse:acr:mfa`,
 * lib/oidc/authentication-context.ts), a session signed in with the password alone
 * is not enough. One more check in the provider's login prompt (oidc-provider's
 * `interactionPolicy`) asks for the second factor of the session's account, in an
 * interaction like any other sign-in; the interaction page sees this check's reason
 * alone and shows the code step, not the password form (lib/sign-in/interactions.ts).
 *
 * A second factor is required when
 * - the request's `acr_values` (OIDC Core §3.1.2.1, "in order of preference") has
 *   `urn:gatehouse:acr:mfa` first: the relying party's first choice is a second
 *   factor, and Gatehouse treats it as required (a password listed after it does not
 *   relax that); values Gatehouse does not know are ignored (§5.5.1.1: acr_values
 *   are voluntary), so an unknown first value asks for nothing;
 * - or the client is registered with `require_second_factor`: every sign-in for it,
 *   whatever the request says.
 *
 * When the session's account has no second factor the requirement cannot be met:
 * the client gets `unmet_authentication_requirements` (OpenID Connect Core 1.0
 * incorporating errata set 2, §3.1.2.6) at its redirect_uri rather than a token with
 * the password acr. With `prompt=none`, a step-up that needs the person answers
 * `login_required` (§3.1.2.6), the login prompt's error.
 */
import { errors, interactionPolicy, type KoaContextWithOIDC } from 'oidc-provider';
import type { Database } from '../db/database.ts';
import { hasSecondFactor } from '../factors/repository.ts';
import { ACR } from './authentication-context.ts';

/** The reason the login prompt names when only the second factor is missing. */
export const SECOND_FACTOR_REASON = 'second_factor';

/** Whether a sign-in must end with the mfa acr: the request asked first for it, or the client always does. */
export function secondFactorRequired(acrValues: unknown, clientRequires: unknown): boolean {
  if (clientRequires === true) return true;
  if (typeof acrValues !== 'string') return false;
  const known = acrValues.split(' ').filter((value) => value === ACR.password || value === ACR.mfa);
  return known[0] === ACR.mfa;
}

/**
 * The provider's check: no prompt without a signed-in session (`no_session` asks
 * for the password first) or when the session already has the mfa acr; the prompt
 * when the account has a second factor to ask for; the error otherwise.
 */
export function secondFactorCheck(db: Database): interactionPolicy.Check {
  // login_required, as the login prompt's own checks (a check added later gets no default: interaction_required).
  return new interactionPolicy.Check(SECOND_FACTOR_REASON, 'a second factor is required', 'login_required', async (ctx: KoaContextWithOIDC) => {
    const { oidc } = ctx;
    if (!secondFactorRequired(oidc.params?.acr_values, oidc.client?.metadata().require_second_factor)) return interactionPolicy.Check.NO_NEED_TO_PROMPT;
    const accountId = oidc.session?.accountId;
    if (!accountId || oidc.session?.acr === ACR.mfa) return interactionPolicy.Check.NO_NEED_TO_PROMPT;
    if (await hasSecondFactor(db, accountId)) return interactionPolicy.Check.REQUEST_PROMPT;
    throw new errors.UnmetAuthenticationRequirements('a second factor is required and the account has none');
  });
}

/** oidc-provider's default policy (login, then consent), with the second-factor check last in the login prompt. */
export function interactionPolicyWithStepUp(db: Database): interactionPolicy.DefaultPolicy {
  const policy = interactionPolicy.base();
  policy.get('login')?.checks.add(secondFactorCheck(db));
  return policy;
}

/**
 * The account whose second factor an interaction asks for when that is all it asks
 * for: the login prompt's only reason is this check, on a signed-in session. Any
 * other reason (no session, prompt=login, max_age, id_token_hint) asks for the
 * password first, and the code step follows it as in every sign-in.
 */
export function stepUpAccountId(interaction: { prompt: { name: string; reasons: string[] }; session?: { accountId?: unknown } }): string | undefined {
  const { prompt, session } = interaction;
  if (prompt.name !== 'login' || prompt.reasons.length === 0) return undefined;
  if (!prompt.reasons.every((reason) => reason === SECOND_FACTOR_REASON)) return undefined;
  return typeof session?.accountId === 'string' ? session.accountId : undefined;
}
