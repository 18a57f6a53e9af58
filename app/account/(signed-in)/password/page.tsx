// /account/password: change one's own password; the other sessions end, this one stays.
import type { Metadata } from 'next';
import { PasswordForm } from '@/components/account/password-form';
import { Card, PageHeader } from '@/components/ui/card';
import { passwordPolicy } from '@/lib/services/passwords';
import { requireUser } from '@/lib/services/portal/session';
import { changePasswordAction } from '../../actions';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Password' };

export default async function PasswordPage() {
  const user = await requireUser('/account/password');
  return (
    <>
      <PageHeader title="Password" description="Change the password you sign in to Gatehouse with." />
      <div className="max-w-xl">
        <Card
          title="Change your password"
          description="Once it is changed, every other session of yours is signed out: anyone signed in as you elsewhere has to sign in again."
        >
          <PasswordForm action={changePasswordAction} username={user.username} minLength={passwordPolicy.minLength} />
        </Card>
      </div>
    </>
  );
}
