/**
 * The portal's sign-in trouble card, worded for the area the browser came from: next-auth's error in plain
 * words and a link that starts the sign-in again. Sign-in itself goes straight to Gatehouse's own page.
 * In the page's language (`portal.signIn`).
 */
import { useTranslations } from 'next-intl';
import { brand } from '@/lib/config/brand';
import { buttonLook } from '../ui/button';
import { AuthCard } from '../ui/card';
import { Notice } from '../ui/notice';

/** next-auth's error codes (https://next-auth.js.org/configuration/pages#sign-in-page), each in plain words in the catalogs. */
const explained = new Set(['OAuthSignin', 'OAuthCallback', 'Callback', 'AccessDenied', 'SessionRequired', 'Configuration'] as const);
type Explained = typeof explained extends Set<infer T> ? T : never;
const isExplained = (error: string): error is Explained => (explained as Set<string>).has(error);

export function SignInCard({ account, error, retry }: { account: boolean; error: string; retry: string }) {
  const t = useTranslations('portal.signIn');
  const product = brand().name;
  const area = account ? t('accountTitle', { product }) : t('adminTitle', { product });
  return (
    <AuthCard title={area} subtitle={account ? t('accountSubtitle') : t('adminSubtitle', { product })}>
      <Notice variant="error" compact>
        {isExplained(error) ? t(error, { product, area }) : t('other')}
      </Notice>
      {/* A plain link, not next/link: a prefetch would start a sign-in. */}
      <a href={retry} className={`block ${buttonLook('primary', true)}`}>
        {t('retry')}
      </a>
    </AuthCard>
  );
}
