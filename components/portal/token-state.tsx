/**
 * An issued token's cells in its list (the registration tokens, the SCIM tokens): its name and when it was issued; its
 * state's badge and, for an admin who may and a token still live, the button that revokes it, named for screen readers
 * by the token's name. A plain form posting to a server action, which checks the admin's role itself.
 */
import { useTranslations } from 'next-intl';
import type { ComponentProps, ReactNode } from 'react';
import { Button } from '../ui/button';

export function TokenName({ name, issued }: { name: string; issued: string }) {
  return (
    <>
      <span className="font-medium text-slate-900">{name}</span>
      <span className="block text-xs text-slate-600">{issued}</span>
    </>
  );
}

export function TokenState({ badge, name, revoke }: { badge: ReactNode; name: string; revoke?: ComponentProps<'form'>['action'] }) {
  const t = useTranslations('portal.tokens');
  return (
    <>
      {badge}
      {revoke ? (
        <form action={revoke} className="mt-2">
          <Button type="submit" variant="secondary" aria-label={t('revokeNamed', { name })}>
            {t('revoke')}
          </Button>
        </form>
      ) : null}
    </>
  );
}
