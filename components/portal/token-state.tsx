/**
 * An issued token's state in its list (the registration tokens, the SCIM tokens): its badge and, for an admin who may
 * and a token still live, the button that revokes it, named for screen readers by the token's name. A plain form
 * posting to a server action, which checks the admin's role itself.
 */
import type { ComponentProps, ReactNode } from 'react';
import { Button } from '../ui/button';

export function TokenState({ badge, revoke }: { badge: ReactNode; revoke?: { action: ComponentProps<'form'>['action']; label: string; namedLabel: string } }) {
  return (
    <>
      {badge}
      {revoke ? (
        <form action={revoke.action} className="mt-2">
          <Button type="submit" variant="secondary" aria-label={revoke.namedLabel}>
            {revoke.label}
          </Button>
        </form>
      ) : null}
    </>
  );
}
