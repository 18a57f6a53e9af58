/**
 * The code step of signing in, after a right password: the code from the
 * person's authenticator app, or one of their recovery codes. Plain forms
 * posted to /interaction/:uid/second-factor: no JavaScript needed. `none`: the
 * person has no authenticator app (passkeys only; the page shows their button),
 * just the way to a recovery code. Its words come from the page, in the page's
 * language (`texts`, interaction.secondFactor in the catalogs). UI only.
 */
import { Button, TextLink } from '../ui/button';
import { TextField } from '../ui/field';

/** What the step says. */
export interface SecondFactorTexts {
  totpLabel: string;
  verify: string;
  recoveryLabel: string;
  recoveryHint: string;
  continue: string;
  useRecoveryCode: string;
  useAnotherWay: string;
}

export function SecondFactorStep({
  base,
  method,
  recoveryCodes,
  texts,
}: {
  base: string;
  method: 'totp' | 'recovery_code' | 'none';
  /** Whether the person has recovery codes left to offer. */
  recoveryCodes: boolean;
  texts: SecondFactorTexts;
}) {
  const action = `${base}/second-factor`;
  const recoveryLink = recoveryCodes ? (
    <p className="mt-4 text-sm text-slate-600">
      <TextLink href={`${base}?method=recovery_code`}>{texts.useRecoveryCode}</TextLink>
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
            label={texts.recoveryLabel}
            hint={texts.recoveryHint}
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            required
            autoFocus
            maxLength={64}
          />
          <Button block type="submit">
            {texts.continue}
          </Button>
        </form>
        <p className="mt-4 text-sm text-slate-600">
          <TextLink href={base}>{texts.useAnotherWay}</TextLink>
        </p>
      </>
    );
  }
  return (
    <>
      <form method="post" action={action} className="space-y-4">
        <input type="hidden" name="method" value="totp" />
        <TextField compact id="code" name="code" label={texts.totpLabel} inputMode="numeric" autoComplete="one-time-code" required autoFocus maxLength={64} />
        <Button block type="submit">
          {texts.verify}
        </Button>
      </form>
      {recoveryLink}
    </>
  );
}
