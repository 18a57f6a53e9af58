/** Badges that say what a client demands of the people who sign in to it, in words (not by colour alone), the page's (admin.clients). UI only. */
import { useTranslations } from 'next-intl';
import { Badge } from '../ui/notice';

/** Every sign-in to the client ends with a second factor (require_second_factor; lib/oidc/step-up.ts). */
export function SecondFactorBadge({ required }: { required: boolean }) {
  const t = useTranslations('admin.clients');
  return required ? <Badge variant="indigo">{t('requiresTwoStep')}</Badge> : null;
}
