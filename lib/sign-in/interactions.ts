/**
 * The sign-in and consent use cases behind /interaction/:uid. Each returns where
 * the browser goes next: back to the authorization request (resume URL), or
 * back to the page with an error code. Each outcome is recorded in the audit log
 * with the request's IP and user agent (`context`); never the password, and
 * counted in the metrics (sign-ins succeeded, failed or throttled at either
 * step; consent granted or denied). The route handlers and the page call these
 * with the server's context.
 */
import 'server-only';
import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import { z } from 'zod';
import { clientForDisplay, findInteraction, finishInteraction, grantFor, interactionParams, returnLink, type Interaction } from '../oidc/interaction.ts';
import type { AppContext } from '../context.ts';
import { AMR, type FirstFactor, loginResult } from '../oidc/authentication-context.ts';
import type { CodeProblem } from '../mail-links/email-verification.ts';
import { stepUpAccountId } from '../oidc/step-up.ts';
import { ANOTHER_ACCOUNT, forAnotherAccount } from '../oidc/select-account.ts';
import { appHost, httpsOnly } from '../oidc/return-link.ts';
import { findAccount, findUserById } from '../users/repository.ts';
import { countPasskeys, findTotpFactor } from '../factors/repository.ts';
import { deletePendingSecondStep, findPendingSecondStep, savePendingSecondStep } from './pending-second-steps.ts';
import { findPendingEmailVerification, savePendingEmailVerification } from './pending-email-verifications.ts';
import { recordAudit, recordAuditBy, userTarget, type RequestContext } from '../audit/log.ts';
import { authenticate, recordLockout } from './authentication.ts';
import { mailUnlockLink } from '../mail-links/account-unlock.ts';
import { sendAfterAnswer } from '../mail/hand-off.ts';
import { knownDevice, rememberDevice } from './devices.ts';
import { trustAllowed, trustDevice, trustedDeviceHere } from './trusted-devices.ts';
import { rememberAccount, rememberedAccounts, type RememberedAccount } from './remembered-accounts.ts';
import { recoveryCodesLeft } from '../factors/recovery-codes.ts';
import { emailSignInCodesOffered, findPendingSignInCode } from './email-codes.ts';
import { CODE_MINUTES } from '../mail-links/codes.ts';
import { checkSignIn, PASSKEY_RESPONSE_MAX_CHARS, signInOptions, type PasskeyProblem } from '../factors/passkeys.ts';
import { hasSecondFactor, verifySecondStep, type SecondStepInput, type SecondStepOutcome } from '../factors/second-step.ts';
import { formText } from '../platform/forms.ts';
import { canMailLinks } from '../mail-links/password-reset.ts';
import { signUpOffered } from './sign-up.ts';
import { secondFactorRequiredFor } from '../factors/policy.ts';
import { PORTAL_CLIENT_ID } from '../clients/portal-client.ts';
import { recordSignInFailure } from './failures.ts';
import { addToConsent, findConsent } from '../consents/repository.ts';
import { permissionsAsked, type AskedPermission } from '../authorization/consent.ts';
import { AUTHORIZATION_SCOPES } from '../authorization/claims.ts';
import { SUPPORTED_SCOPES } from '../oidc/scopes.ts';
import type { FederationFailureReason } from '../federation/errors.ts';
import { linkPendingIdentity, pendingLinkConnection } from '../federation/linking.ts';
import { connectionsFor, type OfferedConnection } from '../federation/offer.ts';
import { passwordFormOffered } from '../federation/client-sign-in.ts';

export const loginForm = z.object({
  username: z.string().trim().min(1, 'Enter your username').max(64),
  password: z.string().min(1, 'Enter your password').max(256),
});

/** How long a passed password step waits for its second step, at most (and never beyond the interaction). */
const SECOND_STEP_TTL_MS = 10 * 60 * 1000;

/**
 * The relying party as the pages show it: its name, its logo (logo_uri, only when https), the
 * domain the person goes back to (the host of this request's redirect_uri, which the provider
 * checked against the registration before the interaction began), and what its forms carry for
 * the expired page (`id`, `redirectUri`).
 */
export interface ShownClient {
  id: string;
  name: string;
  logoUri?: string;
  domain?: string;
  redirectUri?: string;
}

/** A logo the pages may load: https only (mixed content, and a plain-http image can be changed on the way). */

/** What the interaction page needs to render, or why it cannot. */
export type InteractionView =
  /** The request is gone, or not this browser's: `app`, the application to go back to, when that is known and safe. */
  | { kind: 'expired'; app?: { name: string; href: string } }
  /**
   * The password was right; the account has a second factor: the code step.
   * `totp`: the person has an authenticator app; `passkey`: the options for
   * their passkeys, when they have any; `recoveryCodes`: whether any are left.
   */
  | {
      kind: 'second_factor';
      uid: string;
      client: ShownClient;
      username: string;
      totp: boolean;
      passkey?: PublicKeyCredentialRequestOptionsJSON;
      recoveryCodes: boolean;
      /** The days "Don't ask for a second step on this device" trusts this browser for, when offered. */
      trustDays?: number;
    }
  /**
   * The password was typed in this interaction (at sign-up, or at sign-in) for an account whose
   * address is not verified yet: where the link went, and whether it has been used since
   * (`verified`: the person may continue). `via`: how they got here.
   */
  | { kind: 'check_mail'; uid: string; client: ShownClient; email: string; via: 'sign_up' | 'sign_in'; verified: boolean }
  /**
   * prompt=select_account with a signed-in session: its account ("Continue as …"), or none when
   * that account is gone or disabled (then only "Use another account" is offered).
   */
  | {
      kind: 'select_account';
      uid: string;
      client: ShownClient;
      username?: string;
      name?: string;
      /** With ACCOUNT_CHOOSER=on: the browser's other remembered accounts, to sign in as instead. */
      others?: RememberedAccount[];
    }
  /** "Email me a sign-in code" was asked for `username` (lib/sign-in/email-codes.ts): the page for the code, the same for every name. */
  | { kind: 'email_code'; uid: string; client: ShownClient; username: string; minutes: number }
  /** Signed in with a recovery code: how many are left, and where to continue. */
  | { kind: 'recovery_code_used'; uid: string; client: ShownClient; remaining: number; continueTo: string }
  | {
      kind: 'login' | 'consent';
      uid: string;
      client: ShownClient;
      loginHint?: string;
      /** On the consent step: who is signed in. */
      username?: string;
      /** On the login step of a signed-in session (prompt=login, max_age, step-up): its account's username. */
      sessionUsername?: string;
      /** On the login step: the options for signing in with a passkey alone. */
      passkey?: PublicKeyCredentialRequestOptionsJSON;
      /** On the login step: whether "Forgot your password?" can mail a link (lib/mail-links/password-reset.ts). */
      passwordReset?: boolean;
      /** On the login step: whether "Create an account" is offered (lib/sign-in/sign-up.ts). */
      signUp?: boolean;
      /** "Email me a sign-in code" is offered (EMAIL_SIGN_IN_CODES=on, and mail). */
      emailCode?: boolean;
      /**
       * On the login step of a browser that remembers accounts (lib/sign-in/remembered-accounts.ts), when
       * nothing else names who signs in (no login_hint, no session's account): the account chooser's list.
       */
      accounts?: RememberedAccount[];
      scopes: string[];
      claims: string[];
      /** On the consent step: the APIs' permissions asked for (resource indicators), only those the person's roles grant. */
      permissions?: AskedPermission[];
      /**
       * On the consent step: the person allowed this app before (lib/consents/repository.ts), and
       * `scopes`/`claims` are what it asks for beyond that (or, with prompt=consent, all it asks for again).
       */
      consentedBefore?: boolean;
      /** On the login step: a button per connection this client may use (lib/federation); absent when none. */
      connections?: OfferedConnection[];
      /** On the login step: some of them serve email domains, so an address typed first may go to its provider. */
      realms?: boolean;
      /** On the login step: false when the client turned the password form off (lib/federation/client-sign-in.ts). */
      passwordForm?: boolean;
      /** On the login step: an upstream identity waits to be linked once the person signs in here (its connection's name). */
      linking?: string;
    };

/**
 * Where an expired page came from, as its forms carried it (`client_id`, `redirect_uri`: what the
 * authorization request said; the page checks both against the registration before linking).
 */
export interface ExpiredHint {
  clientId?: string;
  redirectUri?: string;
}

/**
 * The expired page: the application to go back to, from the interaction itself when it still
 * exists (opened in another browser, or its cookie lost), else from what the expired form carried.
 */
async function expiredView(ctx: AppContext, uid: string, hint: ExpiredHint): Promise<InteractionView> {
  const params = await interactionParams(ctx, uid);
  const app = params ? await returnLink(ctx, params.client_id, params.redirect_uri) : await returnLink(ctx, hint.clientId, hint.redirectUri);
  return app ? { kind: 'expired', app } : { kind: 'expired' };
}

/** The page for the interaction `uid` as found (`interaction`; undefined when it is gone or not this browser's). */
export async function viewInteraction(
  ctx: AppContext,
  uid: string,
  interaction: Interaction | undefined,
  hint: ExpiredHint = {},
  cookie: string | null = null,
): Promise<InteractionView> {
  if (!interaction) return expiredView(ctx, uid, hint);
  const client = await clientForDisplay(ctx, interaction.params.client_id as string);
  if (!client) return { kind: 'expired' };
  const redirectUri = typeof interaction.params.redirect_uri === 'string' ? interaction.params.redirect_uri : undefined;
  const shown: ShownClient = {
    id: client.clientId,
    name: client.name,
    logoUri: httpsOnly(client.logoUri),
    domain: appHost(redirectUri),
    redirectUri,
  };
  const finished = (interaction.result as { login?: { accountId?: string; amr?: string[] } } | undefined)?.login;
  if (finished?.accountId && interaction.returnTo && finished.amr?.join(' ') === AMR.recovery_code.join(' ')) {
    // Finished with a recovery code and not resumed yet (lib/sign-in/interactions.ts secondStep).
    return { kind: 'recovery_code_used', uid, client: shown, remaining: await recoveryCodesLeft(ctx.db, finished.accountId), continueTo: interaction.returnTo };
  }
  const awaiting = interaction.prompt.name === 'login' ? await findPendingEmailVerification(ctx.db, uid, ctx.now()) : undefined;
  if (awaiting) {
    const account = awaiting.accountId ? await findAccount(ctx.db, awaiting.accountId) : undefined;
    const verified = Boolean(account?.emailVerified && !account.disabled);
    return { kind: 'check_mail', uid, client: shown, email: awaiting.email, via: awaiting.via, verified };
  }
  const codeAsked = interaction.prompt.name === 'login' && emailSignInCodesOffered(ctx) ? await findPendingSignInCode(ctx.db, uid, ctx.now()) : undefined;
  if (codeAsked) return { kind: 'email_code', uid, client: shown, username: codeAsked.username, minutes: CODE_MINUTES };
  const secondStepAccount = await accountForSecondStep(ctx, interaction);
  if (secondStepAccount) {
    const [totp, passkeys, recoveryCodes] = await Promise.all([
      findTotpFactor(ctx.db, secondStepAccount.id),
      countPasskeys(ctx.db, secondStepAccount.id),
      recoveryCodesLeft(ctx.db, secondStepAccount.id),
    ]);
    return {
      kind: 'second_factor',
      uid,
      client: shown,
      username: secondStepAccount.username,
      totp: Boolean(totp?.confirmedAt),
      passkey: passkeys > 0 ? await signInOptions(ctx, uid, interaction.exp * 1000, secondStepAccount.id) : undefined,
      recoveryCodes: recoveryCodes > 0,
      // After a password typed here only: a step-up asks for the mfa acr, which no trust gives.
      trustDays: (await findPendingSecondStep(ctx.db, uid, ctx.now())) && (await trustAllowed(ctx, interaction)) ? ctx.config.TRUSTED_DEVICE_DAYS : undefined,
    };
  }
  if (interaction.prompt.name === 'select_account') {
    const signedIn = typeof interaction.session?.accountId === 'string' ? await findAccount(ctx.db, interaction.session.accountId) : undefined;
    const usable = signedIn && !signedIn.disabled ? signedIn : undefined;
    const remembered = ctx.config.ACCOUNT_CHOOSER === 'on' ? await rememberedAccounts(ctx.db, cookie) : [];
    const others = remembered.filter((other) => other.id !== usable?.id);
    return { kind: 'select_account', uid, client: shown, username: usable?.username, name: usable?.name ?? undefined, ...(others.length ? { others } : {}) };
  }
  const kind = interaction.prompt.name === 'login' ? 'login' : 'consent';
  const accountId = interaction.session?.accountId;
  const account = typeof accountId === 'string' ? await findAccount(ctx.db, accountId) : undefined;
  // "Use another account" was chosen: neither the app's hint nor the session's account fills in the form.
  const another = forAnotherAccount(interaction.prompt);
  const named = typeof interaction.params.login_hint === 'string' || Boolean(account);
  const chooserOn = ctx.config.ACCOUNT_CHOOSER === 'on' && kind === 'login';
  const accounts = chooserOn && !another && !named ? await rememberedAccounts(ctx.db, cookie) : [];
  // An account picked from the chooser on the prompt=select_account page (lib/sign-in/account-choice.ts useAnotherAccount).
  const pickedId = (interaction.lastSubmission as Record<string, { account?: unknown } | undefined> | undefined)?.[ANOTHER_ACCOUNT]?.account;
  // A client without the password form offers neither it nor what hangs on it (reset, sign-up, mailed codes).
  const passwordForm = kind === 'login' && (await passwordFormOffered(ctx.db, shown.id));
  const picked = chooserOn && another && typeof pickedId === 'string' ? (await rememberedAccounts(ctx.db, cookie)).find((a) => a.id === pickedId) : undefined;
  return {
    kind,
    uid,
    client: shown,
    loginHint: another ? picked?.username : typeof interaction.params.login_hint === 'string' ? interaction.params.login_hint.slice(0, 64) : undefined,
    username: kind === 'consent' ? account?.username : undefined,
    sessionUsername: kind === 'login' && !another && !account?.disabled ? account?.username : undefined,
    passkey: kind === 'login' ? await signInOptions(ctx, uid, interaction.exp * 1000) : undefined,
    passwordReset: passwordForm && canMailLinks(ctx),
    signUp: passwordForm && signUpOffered(ctx),
    emailCode: passwordForm && emailSignInCodesOffered(ctx),
    ...(kind === 'login' && !passwordForm ? { passwordForm } : {}),
    ...(accounts.length ? { accounts } : {}),
    ...(kind === 'login' ? await federationOffer(ctx, uid, shown.id) : {}),
    ...(kind === 'consent' ? await consentAsked(ctx, interaction, account?.id) : { scopes: [], claims: [] }),
  };
}

/** The sign-in page's connection buttons and the identity waiting to be linked, when there are any. */
async function federationOffer(
  ctx: AppContext,
  uid: string,
  clientId: string,
): Promise<{ connections?: OfferedConnection[]; realms?: boolean; linking?: string }> {
  const linking = await pendingLinkConnection(ctx.db, uid, ctx.now());
  // While an identity waits for the local sign-in that links it, the buttons would only start another round trip.
  if (linking) return { linking };
  const { buttons, realms } = await connectionsFor(ctx, clientId);
  return { ...(buttons.length ? { connections: buttons } : {}), ...(realms ? { realms } : {}) };
}

/**
 * What the consent step asks for: what the request adds to the person's consent so far, or,
 * when it adds nothing (prompt=consent asks again), everything it requests.
 */
async function consentAsked(ctx: AppContext, interaction: Interaction, accountId: string | undefined) {
  const details = interaction.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[]; missingResourceScopes?: Record<string, string[]> };
  const consentedBefore = accountId ? Boolean(await findConsent(ctx.db, accountId, String(interaction.params.client_id))) : false;
  // The provider lists only the permissions the person's roles grant (lib/oidc/resource-indicators.ts).
  const permissions = await permissionsAsked(ctx.db, details.missingResourceScopes ?? {});
  const missing = { scopes: details.missingOIDCScope ?? [], claims: details.missingOIDCClaims ?? [], permissions };
  if (missing.scopes.length || missing.claims.length || permissions.length) return { ...missing, consentedBefore };
  // Asked again with nothing new (prompt=consent): the OpenID Connect scopes requested; an API's
  // permission names in `scope` are not shown, as the person's roles may not grant them.
  const known = new Set<string>([...SUPPORTED_SCOPES, ...AUTHORIZATION_SCOPES]);
  const requested = typeof interaction.params.scope === 'string' ? interaction.params.scope.split(' ').filter((scope) => known.has(scope)) : [];
  return { scopes: requested, claims: [], permissions: [], consentedBefore: false };
}

/**
 * Whose second factor the login step of an interaction asks for: the account whose
 * password passed in it (the pending second step), or on a step-up the signed-in
 * session's account (lib/oidc/step-up.ts), whose password is not asked again.
 */
async function accountForSecondStep(ctx: AppContext, interaction: Interaction) {
  if (interaction.prompt.name !== 'login') return undefined;
  const pending = await findPendingSecondStep(ctx.db, interaction.uid, ctx.now());
  const accountId = pending?.accountId ?? stepUpAccountId(interaction);
  const account = accountId ? await findAccount(ctx.db, accountId) : undefined;
  return account && !account.disabled ? account : undefined;
}

/** `throttled`: too many attempts; `retryAfterSeconds` says when the next is taken. */
type Failure =
  | { error: 'expired' | 'invalid_credentials' | 'invalid_form' | 'wrong_step' | 'password_first' | 'account_disabled' | 'second_factor_required' }
  /** The check-your-mail step (lib/sign-in/sign-up-interaction.ts): not confirmed yet, or the mail could not be sent. */
  | { error: 'email_not_verified' | 'mail_failed' }
  /** A code from a mail refused (lib/mail-links/codes.ts): malformed, wrong, its mail's tries used up, or expired. */
  | { error: CodeProblem }
  /** "Email me a sign-in code" without a name to send it for (lib/sign-in/email-codes.ts). */
  | { error: 'email_code_username' }
  /** A passkey's answer refused (lib/factors/passkeys.ts). */
  | { error: PasskeyProblem }
  /** The second step refused a code: its problem (lib/factors/second-step.ts), for the page to say. */
  | { error: Extract<SecondStepOutcome, { status: 'refused' }>['problem'] | 'wrong_recovery_code' }
  | { error: 'throttled'; retryAfterSeconds: number }
  /** A sign-in through a connection stopped (lib/federation/errors.ts). */
  | { error: `federation_${FederationFailureReason}` }
  /** A password posted for a client whose sign-in page has no password form (lib/federation/client-sign-in.ts). */
  | { error: 'password_not_offered' };
/** `cookies`: Set-Cookie values the answer carries (the device cookie after a right password, lib/sign-in/devices.ts). */
export type InteractionOutcome = { redirect: string; cookies?: string[] } | Failure;

export async function current(
  ctx: AppContext,
  uid: string,
  cookie: string | null,
  step: 'login' | 'consent' | 'select_account',
): Promise<Interaction | Failure> {
  const interaction = await findInteraction(ctx, uid, cookie);
  if (!interaction) return { error: 'expired' };
  if (interaction.prompt.name !== step) return { error: 'wrong_step' };
  return interaction;
}

/**
 * A form posted on the login step (the federation button, a mailed code, the sign-up's code): the
 * interaction this browser is on and at that step, else why not; then `step` with it.
 */
export function onLoginStep(
  step: (ctx: AppContext, interaction: Interaction, uid: string, cookie: string | null, form: FormData, context: RequestContext) => Promise<InteractionOutcome>,
) {
  return async (ctx: AppContext, uid: string, cookie: string | null, form: FormData, context: RequestContext): Promise<InteractionOutcome> => {
    const interaction = await current(ctx, uid, cookie, 'login');
    return 'error' in interaction ? interaction : step(ctx, interaction, uid, cookie, form, context);
  };
}

/** The client an interaction is for, as the audit log names it. */
export async function clientOf(ctx: AppContext, interaction: Interaction): Promise<{ clientId: string; clientName?: string }> {
  const clientId = String(interaction.params.client_id);
  const client = await clientForDisplay(ctx, clientId);
  return { clientId, clientName: client?.name };
}

export async function signIn(ctx: AppContext, uid: string, cookie: string | null, form: FormData, context: RequestContext): Promise<InteractionOutcome> {
  const interaction = await current(ctx, uid, cookie, 'login');
  if ('error' in interaction) return interaction;
  // Refused by the server, not only left off the page: nothing about the account is looked at.
  if (!(await passwordFormOffered(ctx.db, String(interaction.params.client_id)))) return { error: 'password_not_offered' };
  const parsed = loginForm.safeParse({ username: form.get('username'), password: form.get('password') });
  if (!parsed.success) return { error: 'invalid_form' };
  const { username, password } = parsed.data;
  // "Keep me signed in": unticked, the provider opens a transient session (lib/oidc/configuration.ts, ttl.Session).
  const remember = form.get('remember') === 'on';
  const result = await authenticate(ctx, username, password, context.ip, cookie);
  const client = await clientOf(ctx, interaction);
  if (!result.ok) {
    ctx.metrics.signIn(result.refusal ? 'throttled' : 'failed');
    await recordSignInFailure(ctx, result, client, context);
    if (result.locked && result.accountId && result.username) {
      await recordLockout(ctx.db, { id: result.accountId, username: result.username }, result.locked.until, context);
      // After the answer: it must not take longer, or say more, for an account that has a mailbox.
      const accountId = result.accountId;
      sendAfterAnswer(ctx.mailer, ctx.log, 'an unlock mail', () => mailUnlockLink(ctx, accountId, context));
    }
    if (result.awaitingEmail !== undefined && result.accountId) {
      // The right password of a signed-up account not verified yet: the page says where the link went, and
      // this interaction may continue as that account once it is used, without the password again.
      const pending = { accountId: result.accountId, email: result.awaitingEmail, via: 'sign_in' as const };
      await savePendingEmailVerification(ctx.db, uid, pending, interaction.exp * 1000);
      return { redirect: new URL(`/interaction/${encodeURIComponent(uid)}`, ctx.config.ISSUER).toString() };
    }
    if (result.reason === 'disabled') {
      // Only after the right password (lib/sign-in/authentication.ts): whoever knows it may learn why, and
      // calls their administrator instead of trying again. A wrong one gets the generic answer below.
      return { error: 'account_disabled' };
    }
    return result.refusal ? { error: 'throttled', retryAfterSeconds: result.refusal.retryAfterSeconds } : { error: 'invalid_credentials' };
  }
  // The account's own spelling: usernames match whatever the case typed.
  const next = await completePasswordStep(ctx, uid, cookie, interaction, { id: result.accountId, username: result.username }, client, context, remember);
  if (!('redirect' in next)) return next;
  // The right password makes this browser a known one of the account: its own budget against guessing from now on,
  // and the account on its chooser.
  const secure = ctx.config.ISSUER.startsWith('https:');
  const known = [await rememberDevice(ctx.db, result.accountId, cookie, secure), ...(await chooserCookie(ctx, result.accountId, cookie))];
  return { ...next, cookies: [...known, ...(next.cookies ?? [])] };
}

/** With ACCOUNT_CHOOSER=on, the Set-Cookie that puts the account first on this browser's chooser. */
async function chooserCookie(ctx: AppContext, accountId: string, cookie: string | null): Promise<string[]> {
  if (ctx.config.ACCOUNT_CHOOSER !== 'on') return [];
  return [await rememberAccount(ctx.db, accountId, cookie, ctx.config.ISSUER.startsWith('https:'))];
}

/**
 * After a password typed in this interaction (at sign-in, or at sign-up once the address is
 * verified): on to the second step when the person has one, refused when the policy says they
 * must set one up first, else signed in with the password (amr `pwd`), or with `first`, a mailed
 * code (lib/sign-in/email-codes.ts) that stands where the password stood. `remember`: "Keep me
 * signed in" was ticked (SESSION_TTL), else a transient session with SESSION_IDLE_TTL.
 */
export async function completePasswordStep(
  ctx: AppContext,
  uid: string,
  cookie: string | null,
  interaction: Interaction,
  person: { id: string; username: string },
  client: { clientId: string; clientName?: string; connection?: string },
  context: RequestContext,
  remember: boolean,
  first: FirstFactor = 'pwd',
): Promise<InteractionOutcome> {
  const hasFactor = await hasSecondFactor(ctx.db, person.id);
  // A browser the person trusted skips the step, and the sign-in says it was the password alone (lib/sign-in/trusted-devices.ts).
  const trustedHere = hasFactor && (await trustAllowed(ctx, interaction)) && (await trustedDeviceHere(ctx, person.id, cookie));
  if (hasFactor && !trustedHere) {
    // Not signed in yet: the interaction stays open, and its page asks for the code.
    const expiresAt = Math.min(interaction.exp * 1000, ctx.now() + SECOND_STEP_TTL_MS);
    await savePendingSecondStep(ctx.db, uid, { accountId: person.id, remember, ...(first === 'pwd' ? {} : { first }) }, expiresAt);
    return { redirect: new URL(`/interaction/${encodeURIComponent(uid)}`, ctx.config.ISSUER).toString() };
  }
  if (!hasFactor && client.clientId !== PORTAL_CLIENT_ID && (await mustEnrolFirst(ctx, person.id))) {
    // The portal, where a factor is set up, is the one app such a person may still sign in to.
    ctx.metrics.signIn('failed');
    const details = { username: person.username, reason: 'second_factor_required' as const, ...client };
    await recordAuditBy(ctx.db, { actor: null, context }, { action: 'sign_in.failed', target: userTarget(person), details });
    return { error: 'second_factor_required' };
  }
  ctx.metrics.signIn('succeeded');
  const details = trustedHere ? { ...client, trustedDevice: true as const } : client;
  await recordAuditBy(ctx.db, { actor: person, context }, { action: 'sign_in.succeeded', target: userTarget(person), details });
  // The person proved the account: an upstream identity waiting in this interaction may be linked to it.
  if (first !== 'fed') await linkPendingIdentity(ctx, uid, person.id, context);
  const redirect = await finishInteraction(
    ctx,
    uid,
    cookie,
    { login: { ...loginResult(person.id, undefined, first), remember } },
    { mergeWithLastSubmission: false },
  );
  return { redirect };
}

/** Whether SECOND_FACTOR_REQUIRED says this account (which has no second factor) must set one up before signing in to an app. */
async function mustEnrolFirst(ctx: AppContext, accountId: string): Promise<boolean> {
  const policy = ctx.config.SECOND_FACTOR_REQUIRED;
  if (policy === 'off') return false;
  const user = policy === 'admins' ? await findUserById(ctx.db, accountId) : undefined;
  return secondFactorRequiredFor(policy, user?.role ?? 'user');
}

/**
 * The second step: a TOTP code, or (`method=recovery_code`) a recovery code,
 * from the browser whose password step passed in this interaction. A recovery
 * code finishes the interaction but comes back to the page first, which says
 * how many codes are left before the person continues.
 */
export async function secondStep(ctx: AppContext, uid: string, cookie: string | null, form: FormData, context: RequestContext): Promise<InteractionOutcome> {
  const interaction = await current(ctx, uid, cookie, 'login');
  if ('error' in interaction) return interaction;
  const account = await accountForSecondStep(ctx, interaction);
  if (!account) return { error: 'password_first' };
  const method = form.get('method') === 'recovery_code' ? 'recovery_code' : 'totp';
  const person = { id: account.id, username: account.username };
  const trust = form.get('trust_device') === 'on';
  return finishSecondStep(ctx, uid, cookie, interaction, person, { method, code: formText(form, 'code', 64) }, context, trust);
}

/**
 * The browser's answer to a passkey challenge of the sign-in page (form field
 * `response`, JSON): the second step after a right password, or on the login
 * step a sign-in with the passkey alone.
 */
export async function passkeyStep(ctx: AppContext, uid: string, cookie: string | null, form: FormData, context: RequestContext): Promise<InteractionOutcome> {
  const interaction = await current(ctx, uid, cookie, 'login');
  if ('error' in interaction) return interaction;
  const response = formText(form, 'response', PASSKEY_RESPONSE_MAX_CHARS + 1);
  const account = await accountForSecondStep(ctx, interaction);
  if (account) {
    const person = { id: account.id, username: account.username };
    // "Don't ask again on this device" counts for a passkey as for a code: the page offers the box with either.
    const trust = form.get('trust_device') === 'on';
    return finishSecondStep(ctx, uid, cookie, interaction, person, { method: 'passkey', uid, response }, context, trust);
  }
  const client = await clientOf(ctx, interaction);
  const checked = await checkSignIn(ctx, uid, response);
  const found = checked.accountId ? await findAccount(ctx.db, checked.accountId) : undefined;
  const person = found ? { id: found.id, username: found.username } : undefined;
  const target = person && { type: 'user' as const, id: person.id, label: person.username };
  if (checked.status === 'refused' || !person || found?.disabled) {
    // A passkey names its account (its signature checked or not): no username is guessed here, so saying "disabled" reveals nothing.
    const reason = checked.status === 'verified' ? 'disabled' : 'passkey';
    ctx.metrics.signIn('failed');
    if (person)
      await recordAudit(ctx.db, { action: 'sign_in.failed', actor: null, target, context, details: { username: person.username, reason, ...client } });
    return { error: checked.status === 'verified' ? 'account_disabled' : checked.problem };
  }
  ctx.metrics.signIn('succeeded');
  await recordAudit(ctx.db, { action: 'sign_in.succeeded', actor: person, target, context, details: { ...client, passkey: true } });
  await linkPendingIdentity(ctx, uid, person.id, context);
  const redirect = await finishInteraction(ctx, uid, cookie, { login: loginResult(person.id, 'passwordless') }, { mergeWithLastSubmission: false });
  return { redirect, cookies: await chooserCookie(ctx, person.id, cookie) };
}

/** Checks the second step; on success records it and finishes the interaction as that person. */
async function finishSecondStep(
  ctx: AppContext,
  uid: string,
  cookie: string | null,
  interaction: Interaction,
  person: { id: string; username: string },
  input: SecondStepInput,
  context: RequestContext,
  trust = false,
): Promise<InteractionOutcome> {
  const method = input.method;
  const client = await clientOf(ctx, interaction);
  const outcome = await verifySecondStep(ctx, person, input, context, client);
  if (outcome.status !== 'verified') {
    ctx.metrics.signIn(outcome.status === 'throttled' ? 'throttled' : 'failed');
    if (outcome.status === 'throttled') return { error: 'throttled', retryAfterSeconds: outcome.refusal.retryAfterSeconds };
    return { error: outcome.problem === 'wrong_code' && method === 'recovery_code' ? 'wrong_recovery_code' : outcome.problem };
  }
  // A step-up has no pending step: its session keeps what was chosen when it was opened.
  const pending = await findPendingSecondStep(ctx.db, uid, ctx.now());
  const remember = pending ? (pending.remember ?? true) : !(await sessionIsTransient(ctx, interaction));
  // "Don't ask again on this device": only after a password typed here, and where the page offered it.
  const trusting = trust && pending !== undefined && (await trustAllowed(ctx, interaction));
  const cookies = trusting ? await trustThisBrowser(ctx, person.id, cookie, context) : [];
  await deletePendingSecondStep(ctx.db, uid);
  if (pending?.first !== 'fed') await linkPendingIdentity(ctx, uid, person.id, context);
  ctx.metrics.signIn('succeeded');
  const details = { ...client, secondFactor: outcome.method };
  await recordAuditBy(ctx.db, { actor: person, context }, { action: 'sign_in.succeeded', target: userTarget(person), details });
  const resume = await finishInteraction(
    ctx,
    uid,
    cookie,
    { login: { ...loginResult(person.id, outcome.method, pending?.first), remember } },
    { mergeWithLastSubmission: false },
  );
  // The codes-left page knows a recovery code by its amr, which after an email code is TOTP's too: that sign-in goes straight on.
  const codesLeft = outcome.method === 'recovery_code' && pending?.first !== 'email_code' && pending?.first !== 'fed';
  return { redirect: codesLeft ? new URL(`/interaction/${encodeURIComponent(uid)}`, ctx.config.ISSUER).toString() : resume, cookies };
}

/** Trusts this browser's device id for the account (a device cookie entry made now when it has none); the cookie to set, if new. */
async function trustThisBrowser(ctx: AppContext, accountId: string, cookie: string | null, context: RequestContext): Promise<string[]> {
  let deviceId = await knownDevice(ctx.db, accountId, cookie);
  const set: string[] = [];
  if (!deviceId) {
    const made = await rememberDevice(ctx.db, accountId, cookie, ctx.config.ISSUER.startsWith('https:'));
    set.push(made);
    deviceId = await knownDevice(ctx.db, accountId, made.split(';')[0]);
  }
  if (deviceId) await trustDevice(ctx, accountId, deviceId, context.userAgent);
  return set;
}

/** Whether the session an interaction continues was opened without "Keep me signed in". */
async function sessionIsTransient(ctx: AppContext, interaction: Interaction): Promise<boolean> {
  const sessionUid = interaction.session?.uid;
  if (!sessionUid) return false;
  const provider = await ctx.provider();
  return (await provider.Session.findByUid(sessionUid))?.transient === true;
}

/** Who is consenting (or refusing): the session's account, by its current username. */
async function consentingPerson(ctx: AppContext, interaction: Interaction): Promise<{ id: string; username: string } | null> {
  const accountId = interaction.session?.accountId;
  if (typeof accountId !== 'string') return null;
  const account = await findAccount(ctx.db, accountId);
  return { id: accountId, username: account?.username ?? accountId };
}

/** A consent given or refused, recorded as the person's action on the client. */
async function recordConsent(
  ctx: AppContext,
  interaction: Interaction,
  context: RequestContext,
  outcome: { action: 'consent.granted'; scopes: string[]; claims?: string[] } | { action: 'consent.denied' },
): Promise<void> {
  const client = await clientOf(ctx, interaction);
  const actor = await consentingPerson(ctx, interaction);
  const target = { type: 'client' as const, id: client.clientId, label: client.clientName ?? client.clientId };
  ctx.metrics.consent(outcome.action === 'consent.denied' ? 'denied' : 'granted');
  if (outcome.action === 'consent.denied') {
    await recordAudit(ctx.db, { action: 'consent.denied', actor, target, context, details: client });
    return;
  }
  const { scopes, claims } = outcome;
  await recordAudit(ctx.db, { action: 'consent.granted', actor, target, context, details: { ...client, scopes, ...(claims?.length ? { claims } : {}) } });
}

export async function confirmConsent(ctx: AppContext, uid: string, cookie: string | null, context: RequestContext): Promise<InteractionOutcome> {
  const interaction = await current(ctx, uid, cookie, 'consent');
  if ('error' in interaction) return interaction;
  const details = interaction.prompt.details as {
    missingOIDCScope?: string[];
    missingOIDCClaims?: string[];
    missingResourceScopes?: Record<string, string[]>;
  };
  const grant = await grantFor(ctx, interaction);
  if (details.missingOIDCScope?.length) grant.addOIDCScope(details.missingOIDCScope.join(' '));
  if (details.missingOIDCClaims?.length) grant.addOIDCClaims(details.missingOIDCClaims);
  for (const [indicator, scopes] of Object.entries(details.missingResourceScopes ?? {})) {
    grant.addResourceScope(indicator, scopes.join(' '));
  }
  const grantId = await grant.save();
  // Remembered beyond this session's grant: the next sign-in to this app, in any browser, asks only for what is new.
  const accountId = interaction.session?.accountId;
  if (typeof accountId === 'string') {
    await addToConsent(ctx.db, accountId, String(interaction.params.client_id), {
      scopes: grant.getOIDCScopeEncountered().split(' ').filter(Boolean),
      claims: grant.getOIDCClaimsEncountered(),
      resources: Object.fromEntries(
        Object.keys(details.missingResourceScopes ?? {}).map((indicator) => [
          indicator,
          grant.getResourceScopeEncountered(indicator).split(' ').filter(Boolean),
        ]),
      ),
    });
  }
  const permissions = Object.values(details.missingResourceScopes ?? {}).flat();
  await recordConsent(ctx, interaction, context, {
    action: 'consent.granted',
    scopes: [...(details.missingOIDCScope ?? []), ...permissions],
    claims: details.missingOIDCClaims,
  });
  const redirect = await finishInteraction(ctx, uid, cookie, { consent: { grantId } }, { mergeWithLastSubmission: true });
  return { redirect };
}

/** The person declined: the client gets access_denied (RFC 6749 §4.1.2.1). */
export async function deny(ctx: AppContext, uid: string, cookie: string | null, context: RequestContext): Promise<InteractionOutcome> {
  const interaction = await findInteraction(ctx, uid, cookie);
  if (!interaction) return { error: 'expired' };
  // Cancel on the sign-in step is no one yet; Deny on the consent step is a person refusing an app.
  if (interaction.prompt.name === 'consent') await recordConsent(ctx, interaction, context, { action: 'consent.denied' });
  const redirect = await finishInteraction(
    ctx,
    uid,
    cookie,
    { error: 'access_denied', error_description: 'The user denied the request' },
    { mergeWithLastSubmission: false },
  );
  return { redirect };
}
