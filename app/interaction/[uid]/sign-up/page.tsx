// /interaction/{uid}/sign-up: "Create an account", inside the authorization request (a 404 while SIGN_UP is off), in the request's language.
import type { Metadata } from 'next';
import { cookies } from 'next/headers';
import { notFound } from 'next/navigation';
import { getTranslations } from 'next-intl/server';
import type { ReactNode } from 'react';
import { AppIdentity } from '@/components/interaction/app-identity';
import { ExpiredInteraction } from '@/components/interaction/expired';
import { SignUpForm } from '@/components/interaction/sign-up-form';
import { AuthCard } from '@/components/ui/card';
import { ClientMessages } from '@/components/ui/client-messages';
import { serverContext } from '@/lib/context';
import { minimumPasswordLength } from '@/lib/users/password-policy';
import { viewSignUp } from '@/lib/sign-in/sign-up-interaction';
import { signUpAction } from './actions';

export const dynamic = 'force-dynamic';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('signUp'))('title') };
}

const strong = (chunks: ReactNode) => <strong className="text-slate-900">{chunks}</strong>;

export default async function SignUpPage({ params }: { params: Promise<{ uid: string }> }) {
  const { uid } = await params;
  const view = await viewSignUp(serverContext(), uid, (await cookies()).toString() || null);
  if (view.kind === 'off') notFound();
  if (view.kind === 'expired') return <ExpiredInteraction />;
  const t = await getTranslations('signUp');
  return (
    <AuthCard title={t('title')} subtitle={<AppIdentity client={view.client}>{t.rich('subtitle', { client: view.client.name, strong })}</AppIdentity>}>
      <ClientMessages namespaces={['signUp', 'passwordPair', 'problems', 'ui']}>
        <SignUpForm
          action={signUpAction.bind(null, uid)}
          back={`/interaction/${encodeURIComponent(uid)}`}
          domains={view.domains}
          minLength={minimumPasswordLength(serverContext().config)}
        />
      </ClientMessages>
    </AuthCard>
  );
}
