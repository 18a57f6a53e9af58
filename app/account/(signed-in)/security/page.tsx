// /account/security: two-step verification — an authenticator app (QR code and key), passkeys, recovery codes.
import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { TotpQr } from '@/components/account/totp-qr';
import { ConfirmTotpForm, NewRecoveryCodesForm, RecoveryCodesOnce, TurnOffForm } from '@/components/account/two-step-forms';
import { Button, ButtonLink } from '@/components/ui/button';
import { Card, PageHeader } from '@/components/ui/card';
import { CopyField } from '@/components/ui/copy-field';
import { Badge, Notice } from '@/components/ui/notice';
import { Time } from '@/components/ui/time';
import { AddPasskeyForm, RemovePasskeyForm } from '@/components/account/passkey-forms';
import { passkeysOfUser, recoveryCodesLeftOf, twoStepOf } from '@/lib/surfaces/account/pages';
import { identitiesOfUser, linkOffer } from '@/lib/surfaces/account/identities';
import { passkeysUsable } from '@/lib/factors/passkeys';
import { groupedKey, otpauthUri } from '@/lib/factors/totp';
import { requireUser } from '@/lib/surfaces/portal/session';
import { brand } from '@/lib/config/brand';
import { env } from '@/lib/config/env';
import {
  confirmTwoStepAction,
  finishPasskeyAction,
  newRecoveryCodesAction,
  removePasskeyAction,
  restartTwoStepAction,
  startPasskeyAction,
  startTwoStepAction,
  turnOffTwoStepAction,
  unlinkIdentityAction,
  linkIdentityAction,
} from '../../actions';

export const dynamic = 'force-dynamic';
export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('account.security'))('title') };
}

/** Why the portal sent the person here (SECOND_FACTOR_REQUIRED, lib/surfaces/portal/access.ts). */
async function RequiredNotice({ required, done }: { required: 'admin' | 'everyone'; done: boolean }) {
  const t = await getTranslations('account.security');
  if (done) {
    return (
      <Notice compact>
        <p>{t('isOn')}</p>
        <p className="mt-3">
          <ButtonLink href={required === 'admin' ? '/admin' : '/account'}>{required === 'admin' ? t('continueAdmin') : t('continueAccount')}</ButtonLink>
        </p>
      </Notice>
    );
  }
  return (
    <Notice variant="warning" compact>
      {required === 'admin' ? t('requiredAdmin') : t('requiredEveryone')}
    </Notice>
  );
}

export default async function SecurityPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser('/account/security');
  const { required, identity: identityNotice } = await searchParams;
  const [status, passkeys, codesLeft, identities] = await Promise.all([
    twoStepOf(user),
    passkeysOfUser(user),
    recoveryCodesLeftOf(user),
    identitiesOfUser(user),
  ]);
  const offer = await linkOffer(user, identities);
  const enrolled = status.status === 'on' || passkeys.length > 0;
  const requiredBy = required === 'admin' || required === 'everyone' ? required : undefined;
  const t = await getTranslations('account.security');
  const when = (date: Date) => () => <Time date={date} />;
  const totpUri = status.status === 'pending' ? otpauthUri(status.secret, brand().name, user.username) : '';
  return (
    <>
      <PageHeader title={t('title')} description={t('description', { product: brand().name })} />
      {requiredBy ? (
        <div className="mb-6 max-w-3xl">
          <RequiredNotice required={requiredBy} done={enrolled} />
        </div>
      ) : null}
      {/* At the same place whatever the status: the codes that confirming or getting new ones made show in its answer, with or without JavaScript. */}
      <RecoveryCodesOnce confirm={confirmTwoStepAction} regenerate={newRecoveryCodesAction} holder={{ product: brand().name, username: user.username }}>
        <div className="grid max-w-3xl gap-6">
          {status.status === 'off' ? (
            <Card title={t('app')} description={t('appDescription')}>
              <form action={startTwoStepAction}>
                {requiredBy ? <input type="hidden" name="required" value={requiredBy} /> : null}
                <Button type="submit">{t('setUp')}</Button>
              </form>
            </Card>
          ) : null}
          {status.status === 'pending' ? (
            <Card title={t('pendingTitle')} description={t('pendingDescription')}>
              <div className="flex flex-wrap items-start gap-6">
                <TotpQr uri={totpUri} alt={t('qr')} />
                <div className="min-w-60 flex-1 space-y-4">
                  <div>
                    <CopyField id="totp-key" label={t('key')} value={groupedKey(status.secret)} />
                    <p className="mt-1 text-xs text-slate-500">{t('keyHint')}</p>
                    {/* An authenticator app on this device opens the same set-up the QR code carries. */}
                    <a href={totpUri} className="mt-2 inline-block rounded-sm text-sm font-medium text-accent-text underline-offset-2 hover:underline">
                      {t('openInApp')}
                    </a>
                  </div>
                  <ConfirmTotpForm />
                </div>
              </div>
              <form action={restartTwoStepAction} className="mt-6 border-t border-slate-200 pt-4">
                {requiredBy ? <input type="hidden" name="required" value={requiredBy} /> : null}
                <Button type="submit" variant="secondary">
                  {t('restart')}
                </Button>
              </form>
            </Card>
          ) : null}
          {status.status === 'on' ? (
            <Card title={t('app')}>
              <p className="text-sm text-slate-700">
                {t.rich('onSince', { badge: (chunks) => <Badge variant="green">{chunks}</Badge>, since: when(status.since) })}
              </p>
            </Card>
          ) : null}
          <Card title={t('passkeys')} description={t('passkeysDescription')}>
            {passkeys.length ? (
              <ul className="mb-6 divide-y divide-slate-200 rounded-lg border border-slate-200" aria-label={t('yourPasskeys')}>
                {passkeys.map((passkey) => (
                  <li key={passkey.id} className="p-4">
                    <p className="font-medium text-slate-900">{passkey.name}</p>
                    <p className="mt-0.5 text-sm text-slate-600">
                      {passkey.deviceType === 'multiDevice' ? t('synced') : t('oneDevice')} · {t.rich('added', { when: when(passkey.createdAt) })} ·{' '}
                      {passkey.lastUsedAt ? t.rich('lastUsed', { when: when(passkey.lastUsedAt) }) : t('notUsed')}
                    </p>
                    <details className="mt-2">
                      <summary className="cursor-pointer text-sm font-medium text-red-700">{t('remove')}</summary>
                      <div className="mt-3">
                        <RemovePasskeyForm id={passkey.id} name={passkey.name} username={user.username} action={removePasskeyAction} />
                      </div>
                    </details>
                  </li>
                ))}
              </ul>
            ) : null}
            {passkeysUsable({ ISSUER: env().ISSUER }) ? (
              <AddPasskeyForm username={user.username} product={brand().name} startAction={startPasskeyAction} finishAction={finishPasskeyAction} />
            ) : (
              <p className="text-sm text-slate-700">{t('passkeysUnavailable')}</p>
            )}
          </Card>
          {identities.length || identityNotice || offer.connections.length ? (
            // Only for people who signed in elsewhere: everyone else's page is as it was.
            <Card title={t('identities')} description={t('identitiesDescription')}>
              {identityNotice === 'unlinked' ? <Notice compact>{t('identityUnlinked')}</Notice> : null}
              {identityNotice === 'linked' ? <Notice compact>{t('identityLinked')}</Notice> : null}
              {identityNotice === 'link_taken' || identityNotice === 'link_failed' || identityNotice === 'link_unavailable' ? (
                <Notice variant="warning" compact>
                  {t(identityNotice === 'link_taken' ? 'identityTaken' : 'identityLinkFailed')}
                </Notice>
              ) : null}
              {identityNotice === 'last' ? (
                <Notice variant="warning" compact>
                  {t('identityLast')}
                </Notice>
              ) : null}
              {identities.length ? (
                <ul className="mt-4 divide-y divide-slate-200 rounded-lg border border-slate-200" aria-label={t('identities')}>
                  {identities.map((identity) => (
                    <li key={identity.id} className="flex flex-wrap items-center justify-between gap-3 p-4">
                      <div>
                        <p className="font-medium text-slate-900">{identity.connectionName}</p>
                        <p className="mt-0.5 text-sm text-slate-600">
                          {identity.email ? `${identity.email} · ` : ''}
                          {identity.lastUsedAt ? t.rich('lastUsed', { when: when(identity.lastUsedAt) }) : t('notUsed')}
                        </p>
                      </div>
                      <form action={unlinkIdentityAction.bind(null, identity.id)}>
                        <Button type="submit" variant="secondary">
                          {t('unlinkIdentity', { connection: identity.connectionName })}
                        </Button>
                      </form>
                    </li>
                  ))}
                </ul>
              ) : null}
              {offer.connections.length ? (
                <div className="mt-4">
                  <p className="text-sm text-slate-700">{offer.recent ? t('linkAnother') : t('linkReauthenticate')}</p>
                  <ul className="mt-3 flex flex-wrap gap-2" aria-label={t('linkAnotherList')}>
                    {offer.connections.map((connection) => (
                      <li key={connection.slug}>
                        <form action={linkIdentityAction.bind(null, connection.slug)}>
                          <Button type="submit" variant="secondary">
                            {t('linkIdentity', { connection: connection.displayName })}
                          </Button>
                        </form>
                      </li>
                    ))}
                  </ul>
                </div>
              ) : null}
            </Card>
          ) : null}
          {status.status === 'on' || passkeys.length ? (
            <Card title={t('codes')} description={t('codesLeft', { count: codesLeft })}>
              <NewRecoveryCodesForm username={user.username} />
            </Card>
          ) : null}
          {status.status === 'on' ? (
            <Card title={passkeys.length ? t('removeApp') : t('turnOff')} description={passkeys.length ? t('removeAppDescription') : t('turnOffDescription')}>
              <TurnOffForm action={turnOffTwoStepAction} username={user.username} />
            </Card>
          ) : null}
        </div>
      </RecoveryCodesOnce>
    </>
  );
}
