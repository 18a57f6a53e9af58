/**
 * The step of an authorization request that waits for a signed-up account's
 * address to be confirmed (lib/services/sign-up-interaction.ts): where the link
 * went, then "I've confirmed — continue", "Send the link again" and "Sign in with
 * another account". Plain forms: works without JavaScript. UI only.
 */
import { Button } from '../ui/button';
import { Notice } from '../ui/notice';

export function CheckMailStep({
  base,
  email,
  via,
  verified,
  clientName,
  resent,
}: {
  /** /interaction/{uid} */
  base: string;
  email: string;
  via: 'sign_up' | 'sign_in';
  verified: boolean;
  clientName: string;
  /** The link was just sent again. */
  resent: boolean;
}) {
  if (verified) {
    return (
      <>
        <Notice compact>
          <strong>{email}</strong> is confirmed.
        </Notice>
        <form method="post" action={`${base}/continue`} className="mt-4">
          <Button block type="submit" autoFocus>
            Continue to {clientName}
          </Button>
        </form>
      </>
    );
  }
  return (
    <>
      {resent ? (
        <div className="mb-4">
          <Notice compact>A new link is on its way. The one sent before no longer works.</Notice>
        </div>
      ) : null}
      <p className="text-sm text-slate-700">
        {via === 'sign_in' ? 'Your account can sign in once its email address is confirmed. ' : ''}
        We sent a link to <strong className="text-slate-900">{email}</strong>. Open it and confirm; then come back here and continue.
      </p>
      <p className="mt-2 text-sm text-slate-600">Nothing arrived? Check the spam folder, or send the link again.</p>
      <form method="post" action={`${base}/continue`} className="mt-6">
        <Button block type="submit">
          I’ve confirmed — continue
        </Button>
      </form>
      <form method="post" action={`${base}/resend`} className="mt-3">
        <Button block type="submit" variant="secondary">
          Send the link again
        </Button>
      </form>
      <form method="post" action={`${base}/restart`} className="mt-3">
        <Button block type="submit" variant="secondary">
          Sign in with another account
        </Button>
      </form>
    </>
  );
}
