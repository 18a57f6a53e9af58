// The 403 page (forbidden() from requireAdmin): signed in, but not an administrator; their own /account is open to them.
import Link from 'next/link';
import { Button, focusRing } from '@/components/ui/button';
import { AuthCard } from '@/components/ui/card';
import { signOutAction } from '@/app/admin/actions';
import { brand } from '@/lib/config/brand';

export default function Forbidden() {
  return (
    <AuthCard title="You don't have access to this page">
      <p className="text-sm text-slate-600">
        <span className="font-semibold text-slate-900">403 Forbidden.</span> The admin area is for {brand().name} administrators, and your account does not have
        the admin role. Ask an administrator to grant it, or sign out and sign in with another account.
      </p>
      <form action={signOutAction} className="mt-6">
        <Button type="submit" block>
          Sign out
        </Button>
      </form>
      <p className="mt-4 text-center text-sm">
        <Link href="/account" className={`rounded-sm text-slate-600 underline hover:text-slate-900 ${focusRing}`}>
          Go to your account
        </Link>
      </p>
    </AuthCard>
  );
}
