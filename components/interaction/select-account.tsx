/**
 * The prompt=select_account page: the account signed in here ("Continue as …"), or another one.
 * Both are form posts (no JavaScript needed); Cancel sends the app access_denied. UI only.
 */
import { getTranslations } from 'next-intl/server';
import type { ReactNode } from 'react';
import { Button } from '../ui/button';
import { AuthCard } from '../ui/card';
import { AnotherAccountForm } from './another-account';
import { AppIdentity } from './app-identity';
import { RequestFields } from './request-fields';

export async function SelectAccount({
  base,
  client,
  account,
  others = [],
  notice,
}: {
  /** /interaction/{uid} */
  base: string;
  client: { id: string; name: string; logoUri?: string; domain?: string; redirectUri?: string };
  /** The signed-in account; none when it cannot be used any more. */
  account?: { username: string; name?: string };
  /** The browser's other remembered accounts (ACCOUNT_CHOOSER): each signs in with its own password, its username filled in. */
  others?: { id: string; username: string; name?: string; email?: string }[];
  notice?: ReactNode;
}) {
  const t = await getTranslations('interaction');
  const strong = (chunks: ReactNode) => <strong className="text-slate-900">{chunks}</strong>;
  return (
    <AuthCard
      title={t('selectAccount.title')}
      subtitle={<AppIdentity client={client}>{t.rich('login.subtitle', { client: client.name, strong })}</AppIdentity>}
    >
      {notice}
      {account ? (
        <form method="post" action={`${base}/select-account`}>
          <RequestFields client={client} />
          <p className="text-sm text-slate-600">
            {t('selectAccount.signedIn')}{' '}
            <strong className="text-slate-900">{account.name ? `${account.name} (${account.username})` : account.username}</strong>
          </p>
          <Button block type="submit" autoFocus className="mt-3">
            {t('selectAccount.continueAs', { username: account.username })}
          </Button>
        </form>
      ) : (
        <p className="text-sm text-slate-600">{t('selectAccount.gone')}</p>
      )}
      {others.length ? (
        <div className="mt-4">
          <p className="text-sm text-slate-600">{t('selectAccount.others')}</p>
          <ul className="mt-2 space-y-2">
            {others.map((other) => (
              <li key={other.id}>
                <form method="post" action={`${base}/another-account`}>
                  <RequestFields client={client} />
                  <input type="hidden" name="account" value={other.id} />
                  <Button block type="submit" variant="secondary">
                    {other.name ? `${other.name} (${other.email ?? other.username})` : (other.email ?? other.username)}
                  </Button>
                </form>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <AnotherAccountForm action={`${base}/another-account`} client={client} label={t('account.useAnother')} className="mt-4 text-center text-sm" />
      <form method="post" action={`${base}/abort`} className="mt-3">
        <RequestFields client={client} />
        <Button block type="submit" variant="secondary">
          {t('cancel')}
        </Button>
      </form>
    </AuthCard>
  );
}
