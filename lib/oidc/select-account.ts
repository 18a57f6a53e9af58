/**
 * Choosing the account, in oidc-provider's interaction policy: `prompt=select_account` and
 * "Not you? Use another account".
 *
 * `prompt=select_account` (OIDC Core §3.1.2.1: "prompt the End-User to select a user account")
 * is a prompt of its own, first in the policy, so discovery lists it in prompt_values_supported
 * and the provider accepts it. With a signed-in session it asks: the page shows that account
 * ("Continue as …") and "Use another account". Without one there is no account to choose
 * from: the login prompt's sign-in form is the choice, and a sign-in settles it.
 *
 * A person who says the signed-in account is not the one to use (on the consent page, or the
 * sign-in page when it shows a login_hint or the session's account) ends that interaction with
 * the result `ANOTHER_ACCOUNT` (lib/sign-in/interactions.ts useAnotherAccount). The provider
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

/** The prompt's one reason, as oidc-provider names the check of a requestable prompt. */
export const SELECT_ACCOUNT_REASON = 'select_account_prompt';

/**
 * The select_account prompt. Its check replaces the one oidc-provider gives a requestable prompt,
 * which counts a prompt as settled only by a result of its own name: here a sign-in (`login`) or
 * "Use another account" settles it too, or the person would be asked to choose again right after
 * choosing by signing in.
 */
export function selectAccountPrompt(): interactionPolicy.Prompt {
  const prompt = new interactionPolicy.Prompt({ name: 'select_account', requestable: true });
  prompt.checks.remove(SELECT_ACCOUNT_REASON);
  prompt.checks.add(
    // account_selection_required: the error OIDC Core §3.1.2.6 names for this prompt.
    new interactionPolicy.Check(
      SELECT_ACCOUNT_REASON,
      'the End-User was asked to select an account',
      'account_selection_required',
      (ctx: KoaContextWithOIDC) => {
        const { oidc } = ctx;
        if (!oidc.prompts.has('select_account') || !oidc.session?.accountId) return interactionPolicy.Check.NO_NEED_TO_PROMPT;
        const result = oidc.result;
        const settled = Boolean(result?.select_account || result?.login || result?.[ANOTHER_ACCOUNT]);
        return settled ? interactionPolicy.Check.NO_NEED_TO_PROMPT : interactionPolicy.Check.REQUEST_PROMPT;
      },
    ),
  );
  return prompt;
}

/** `policy` with the account choice: select_account first, and the check above in its login prompt. */
export function withAccountChoice(policy: interactionPolicy.DefaultPolicy): interactionPolicy.DefaultPolicy {
  policy.add(selectAccountPrompt(), 0);
  policy.get('login')?.checks.add(anotherAccountCheck());
  return policy;
}

/** Whether an interaction's login prompt is for another account than the session's (the page then offers no hint). */
export function forAnotherAccount(prompt: { name: string; reasons: string[] }): boolean {
  return prompt.name === 'login' && prompt.reasons.includes(ANOTHER_ACCOUNT_REASON);
}

/** The prompt values a request may carry: `none` and the policy's requestable prompts (as oidc-provider accepts them). */
export function promptValues(policy: interactionPolicy.DefaultPolicy): string[] {
  return ['none', ...policy.filter((prompt) => prompt.requestable).map((prompt) => prompt.name)];
}
