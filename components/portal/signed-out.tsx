/** Where RP-initiated logout returns to from either area: a card that says so, and a way back in. */
import { ButtonLink } from '../ui/button';
import { AuthCard } from '../ui/card';

export function SignedOut({ subtitle, home }: { subtitle: string; home: string }) {
  return (
    <AuthCard title="You are signed out" subtitle={subtitle}>
      <ButtonLink block href={home}>
        Sign in again
      </ButtonLink>
    </AuthCard>
  );
}
