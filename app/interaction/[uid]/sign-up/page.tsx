// /interaction/{uid}/sign-up: "Create an account", inside the authorization request (a 404 while SIGN_UP is off).
import type { Metadata } from 'next';
import { cookies } from 'next/headers';
import { notFound } from 'next/navigation';
import { ExpiredInteraction } from '@/components/interaction/expired';
import { SignUpForm } from '@/components/interaction/sign-up-form';
import { AuthCard } from '@/components/ui/card';
import { passwordPolicy } from '@/lib/services/passwords';
import { viewSignUp } from '@/lib/services/sign-up-interaction';
import { signUpAction } from './actions';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Create an account' };

export default async function SignUpPage({ params }: { params: Promise<{ uid: string }> }) {
  const { uid } = await params;
  const view = await viewSignUp(uid, (await cookies()).toString() || null);
  if (view.kind === 'off') notFound();
  if (view.kind === 'expired') return <ExpiredInteraction />;
  return (
    <AuthCard
      title="Create an account"
      subtitle={
        <>
          to continue to <strong className="text-slate-900">{view.client.name}</strong>
        </>
      }
    >
      <SignUpForm
        action={signUpAction.bind(null, uid)}
        back={`/interaction/${encodeURIComponent(uid)}`}
        domains={view.domains}
        minLength={passwordPolicy.minLength}
      />
    </AuthCard>
  );
}
