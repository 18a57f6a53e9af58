/**
 * Choosing the account, in oidc-provider's interaction policy: "Not you? Use another account".
 *
 * A person who says the signed-in account is not the one to use (on the consent page, or the
 * sign-in page when it shows a login_hint or the session's account) ends that interaction with
 * the result `ANOTHER_ACCOUNT` (lib/services/interactions.ts useAnotherAccount). The provider
 * resumes the authorization request, and the check below makes its login prompt ask again: a new
 * interaction whose reason says that this sign-in is for another account, so the page shows the
 * form without the hint and without the session's username. When someone else then signs in,
 * the provider itself ends the session of the account before (its resume step logs it out
 * through end_session_confirm, then resumes as the new account): one account per browser session.
 */
import { interactionPolicy, type KoaContextWithOIDC } from 'oidc-provider';

/** The interaction result that asks for another account (a key oidc-provider leaves alone: it is no prompt's name). */
export const ANOTHER_ACCOUNT = 'gatehouse_another_account';

/** The login prompt's reason when the person asked to use another account. */
export const ANOTHER_ACCOUNT_REASON = 'another_account';

/** Requests the login prompt when the interaction just resumed from was ended with ANOTHER_ACCOUNT. */
export function anotherAccountCheck(): interactionPolicy.Check {
  // login_required, as the login prompt's own checks (this one never runs with prompt=none: it needs a resumed result).
  return new interactionPolicy.Check(
    ANOTHER_ACCOUNT_REASON,
    'the End-User chose to sign in with another account',
    'login_required',
    (ctx: KoaContextWithOIDC) => (ctx.oidc.result?.[ANOTHER_ACCOUNT] ? interactionPolicy.Check.REQUEST_PROMPT : interactionPolicy.Check.NO_NEED_TO_PROMPT),
  );
}

/** `policy` with the account choice: the check above in its login prompt. */
export function withAccountChoice(policy: interactionPolicy.DefaultPolicy): interactionPolicy.DefaultPolicy {
  policy.get('login')?.checks.add(anotherAccountCheck());
  return policy;
}

/** Whether an interaction's login prompt is for another account than the session's (the page then offers no hint). */
export function forAnotherAccount(prompt: { name: string; reasons: string[] }): boolean {
  return prompt.name === 'login' && prompt.reasons.includes(ANOTHER_ACCOUNT_REASON);
}
