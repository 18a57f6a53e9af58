// The 404 page (an unknown path, or notFound() from a page): the sign-in pages' card, in the brand, in either scheme.
import type { Metadata } from 'next';
import { AuthCard } from '@/components/ui/card';

export const metadata: Metadata = { title: 'Page not found' };

export default function NotFound() {
  return (
    <AuthCard title="Page not found">
      <p className="text-sm text-slate-600">
        <span className="font-semibold text-slate-900">404.</span> There is nothing at this address. Check the link, or go back to the application that sent you
        here.
      </p>
    </AuthCard>
  );
}
