/** Where RP-initiated logout returns to from either area: a card that says so, and a way back in. In the page's language (`portal`). */
import { useTranslations } from 'next-intl';
import { ButtonLink } from '../ui/button';
import { AuthCard } from '../ui/card';

export function SignedOut({ subtitle, home }: { subtitle: string; home: string }) {
  const t = useTranslations('portal');
  return (
    <AuthCard title={t('signedOut')} subtitle={subtitle}>
      <ButtonLink block href={home}>
        {t('signInAgain')}
      </ButtonLink>
    </AuthCard>
  );
}
