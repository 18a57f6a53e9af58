/**
 * The code step of signing in, after a right password: the code from the
 * person's authenticator app, or one of their recovery codes. Plain forms
 * posted to /interaction/:uid/second-factor: no JavaScript needed. `none`: the
 * person has no authenticator app (passkeys only; the page shows their button),
 * just the way to a recovery code. UI only.
 */
import { Button, TextLink } from '../ui/button';
import { TextField } from '../ui/field';

export function SecondFactorStep({
  base,
  method,
  recoveryCodes,
}: {
  base: string;
  method: 'totp' | 'recovery_code' | 'none';
  /** Whether the person has recovery codes left to offer. */
  recoveryCodes: boolean;
}) {
  const action = `${base}/second-factor`;
  const recoveryLink = recoveryCodes ? (
    <p className="mt-4 text-sm text-slate-600">
      <TextLink href={`${base}?method=recovery_code`}>Use a recovery code instead</TextLink>
    </p>
  ) : null;
  if (method === 'none') return recoveryLink;
  if (method === 'recovery_code') {
    return (
      <>
        <form method="post" action={action} className="space-y-4">
          <input type="hidden" name="method" value="recovery_code" />
          <TextField
            compact
            id="code"
            name="code"
            label="Recovery code"
            hint="One of the codes you saved when you turned on two-step verification. Each works once."
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            required
            autoFocus
            maxLength={64}
          />
          <Button block type="submit">
            Continue
          </Button>
        </form>
        <p className="mt-4 text-sm text-slate-600">
          <TextLink href={base}>Use another way to verify</TextLink>
        </p>
      </>
    );
  }
  return (
    <>
      <form method="post" action={action} className="space-y-4">
        <input type="hidden" name="method" value="totp" />
        <TextField
          compact
          id="code"
          name="code"
          label="Enter the code from your authenticator app"
          inputMode="numeric"
          autoComplete="one-time-code"
          required
          autoFocus
          maxLength={64}
        />
        <Button block type="submit">
          Verify
        </Button>
      </form>
      {recoveryLink}
    </>
  );
}
