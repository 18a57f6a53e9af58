// /account/security: two-step verification — an authenticator app (QR code and key), passkeys, recovery codes.
import type { Metadata } from 'next';
import { TotpQr } from '@/components/account/totp-qr';
import { ConfirmTotpForm, NewRecoveryCodesForm, RecoveryCodesOnce, TurnOffForm } from '@/components/account/two-step-forms';
import { Button, TextLink } from '@/components/ui/button';
import { Card, PageHeader } from '@/components/ui/card';
import { Badge, Notice } from '@/components/ui/notice';
import { Time } from '@/components/ui/time';
import { AddPasskeyForm, RemovePasskeyForm } from '@/components/account/passkey-forms';
import { passkeysOfUser, recoveryCodesLeftOf, twoStepOf } from '@/lib/services/account/pages';
import { groupedKey, otpauthUri } from '@/lib/services/factors/totp';
import { requireUser } from '@/lib/services/portal/session';
import { brand } from '@/lib/config/brand';
import {
  confirmTwoStepAction,
  finishPasskeyAction,
  newRecoveryCodesAction,
  removePasskeyAction,
  restartTwoStepAction,
  startPasskeyAction,
  startTwoStepAction,
  turnOffTwoStepAction,
} from '../../actions';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Two-step verification' };

/** Why the portal sent the person here (SECOND_FACTOR_REQUIRED, lib/services/portal/access.ts). */
function RequiredNotice({ required, done }: { required: 'admin' | 'everyone'; done: boolean }) {
  if (done) {
    return (
      <Notice compact>
        Two-step verification is on.{' '}
        {required === 'admin' ? <TextLink href="/admin">Continue to the admin portal</TextLink> : <TextLink href="/account">Continue to your account</TextLink>}
      </Notice>
    );
  }
  return (
    <Notice variant="warning" compact>
      {required === 'admin'
        ? 'Administrators must use two-step verification. Set up an authenticator app or a passkey below to continue to the admin portal.'
        : 'Every account here must use two-step verification. Set up an authenticator app or a passkey below to continue.'}
    </Notice>
  );
}

export default async function SecurityPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser('/account/security');
  const { required } = await searchParams;
  const [status, passkeys, codesLeft] = await Promise.all([twoStepOf(user), passkeysOfUser(user), recoveryCodesLeftOf(user)]);
  const enrolled = status.status === 'on' || passkeys.length > 0;
  const requiredBy = required === 'admin' || required === 'everyone' ? required : undefined;
  return (
    <>
      <PageHeader
        title="Two-step verification"
        description={`After your password, ${brand().name} asks for a code from an authenticator app or for one of your passkeys, so a stolen password alone does not get anyone in.`}
      />
      {requiredBy ? (
        <div className="mb-6 max-w-3xl">
          <RequiredNotice required={requiredBy} done={enrolled} />
        </div>
      ) : null}
      {/* At the same place whatever the status: the codes that confirming or getting new ones made show in its answer, with or without JavaScript. */}
      <RecoveryCodesOnce confirm={confirmTwoStepAction} regenerate={newRecoveryCodesAction}>
        <div className="grid max-w-3xl gap-6">
          {status.status === 'off' ? (
            <Card
              title="Authenticator app"
              description="Use any app that shows 6-digit codes (time-based, TOTP): for example a password manager or an authenticator app."
            >
              <form action={startTwoStepAction}>
                {requiredBy ? <input type="hidden" name="required" value={requiredBy} /> : null}
                <Button type="submit">Set up an authenticator app</Button>
              </form>
            </Card>
          ) : null}
          {status.status === 'pending' ? (
            <Card
              title="Set up your authenticator app"
              description="Scan the QR code with the app, or type the key into it. Then enter the code it shows to turn two-step verification on."
            >
              <div className="flex flex-wrap items-start gap-6">
                <TotpQr uri={otpauthUri(status.secret, brand().name, user.username)} />
                <div className="min-w-60 flex-1 space-y-4">
                  <div>
                    <p className="text-sm font-medium text-slate-700">Key</p>
                    <p className="mt-1 font-mono text-base tracking-wide text-slate-900" data-testid="totp-key">
                      {groupedKey(status.secret)}
                    </p>
                    <p className="mt-1 text-xs text-slate-500">Time-based, 6 digits, every 30 seconds.</p>
                  </div>
                  <ConfirmTotpForm />
                </div>
              </div>
              <form action={restartTwoStepAction} className="mt-6 border-t border-slate-200 pt-4">
                {requiredBy ? <input type="hidden" name="required" value={requiredBy} /> : null}
                <Button type="submit" variant="secondary">
                  Start again with a new key
                </Button>
              </form>
            </Card>
          ) : null}
          {status.status === 'on' ? (
            <Card title="Authenticator app">
              <p className="text-sm text-slate-700">
                <Badge variant="green">On</Badge> since <Time date={status.since} />. Signing in asks for a code from your app after your password.
              </p>
            </Card>
          ) : null}
          <Card
            title="Passkeys"
            description="A passkey is kept by your device or password manager and unlocked with your fingerprint, face or PIN. It signs you in on its own, without your password, or as the second step after it. Passkeys need JavaScript; the authenticator app works without."
          >
            {passkeys.length ? (
              <ul className="mb-6 divide-y divide-slate-200 rounded-lg border border-slate-200" aria-label="Your passkeys">
                {passkeys.map((passkey) => (
                  <li key={passkey.id} className="p-4">
                    <p className="font-medium text-slate-900">{passkey.name}</p>
                    <p className="mt-0.5 text-sm text-slate-600">
                      {passkey.deviceType === 'multiDevice' ? 'Synced' : 'On one device'} · added <Time date={passkey.createdAt} /> ·{' '}
                      {passkey.lastUsedAt ? (
                        <>
                          last used <Time date={passkey.lastUsedAt} />
                        </>
                      ) : (
                        'not used yet'
                      )}
                    </p>
                    <details className="mt-2">
                      <summary className="cursor-pointer text-sm font-medium text-red-700">Remove</summary>
                      <div className="mt-3">
                        <RemovePasskeyForm id={passkey.id} name={passkey.name} username={user.username} action={removePasskeyAction} />
                      </div>
                    </details>
                  </li>
                ))}
              </ul>
            ) : null}
            <AddPasskeyForm username={user.username} startAction={startPasskeyAction} finishAction={finishPasskeyAction} />
          </Card>
          {status.status === 'on' || passkeys.length ? (
            <Card
              title="Recovery codes"
              description={`${codesLeft} of your recovery codes ${codesLeft === 1 ? 'is' : 'are'} left. Each works once, instead of your app or a passkey. New ones replace every earlier one.`}
            >
              <NewRecoveryCodesForm username={user.username} />
            </Card>
          ) : null}
          {status.status === 'on' ? (
            <Card
              title={passkeys.length ? 'Remove the authenticator app' : 'Turn off two-step verification'}
              description={
                passkeys.length
                  ? 'Your passkeys stay. Enter your password to confirm that it is you.'
                  : 'Your password alone will sign you in again. Enter it to confirm that it is you.'
              }
            >
              <TurnOffForm action={turnOffTwoStepAction} username={user.username} />
            </Card>
          ) : null}
        </div>
      </RecoveryCodesOnce>
    </>
  );
}
