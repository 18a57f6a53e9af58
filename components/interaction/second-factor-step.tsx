/**
 * The code step of signing in, after a right password: the code from the
 * person's authenticator app, or one of their recovery codes. Plain forms
 * posted to /interaction/:uid/second-factor: no JavaScript needed. `none`: the
 * person has no authenticator app (passkeys only; the page shows their button),
 * just the way to a recovery code. Its words come from the page, in the page's
 * language (`texts`, interaction.secondFactor in the catalogs). Each form carries the request's
 * client and redirect_uri (RequestFields), as the login form does: should the request expire while
 * the person finds their code, the expired page still links back to the application. UI only.
 */
import { Button, TextLink } from '../ui/button';
import { TextField } from '../ui/field';
import { RequestFields } from './request-fields';
import { TrustDeviceBox } from './trust-device-box';

/** What the step says. */
export interface SecondFactorTexts {
  totpLabel: string;
  verify: string;
  recoveryLabel: string;
  recoveryHint: string;
  continue: string;
  useRecoveryCode: string;
  useAnotherWay: string;
  /** The "don't ask again on this device" box, when the page offers it (lib/sign-in/trusted-devices.ts). */
  trustDevice?: string;
}

/** The id of the code form's trust box, whose state the passkey form above it sends too. */
export const TRUST_BOX_ID = 'trust-device';

export function SecondFactorStep({
  base,
  client,
  method,
  recoveryCodes,
  texts,
}: {
  base: string;
  /** The authorization request's client and redirect_uri, for the expired page's link back. */
  client: { id: string; redirectUri?: string };
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
          <RequestFields client={client} />
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
          <TrustDeviceBox label={texts.trustDevice} id={TRUST_BOX_ID} />
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
        <RequestFields client={client} />
        <TextField compact id="code" name="code" label={texts.totpLabel} inputMode="numeric" autoComplete="one-time-code" required autoFocus maxLength={64} />
        <TrustDeviceBox label={texts.trustDevice} id={TRUST_BOX_ID} />
        <Button block type="submit">
          {texts.verify}
        </Button>
      </form>
      {recoveryLink}
    </>
  );
}
