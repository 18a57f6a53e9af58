// /admin/system: how this server is set up — issuer, storage, where mail goes, the second-factor policy. Read only.
import type { Metadata } from 'next';
import { Facts } from '@/components/portal/detail';
import { Card, PageHeader } from '@/components/ui/card';
import { requireAdmin } from '@/lib/services/portal/session';
import { systemView } from '@/lib/services/portal/system';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'System' };

const policies = {
  admins: 'Administrators (the default)',
  everyone: 'Everyone',
  off: 'No one',
} as const;

export default async function SystemPage() {
  await requireAdmin('/admin/system');
  const system = systemView();
  return (
    <>
      <PageHeader title="System" description="How this server is set up. Change it with the environment variables the README lists, then restart." />
      <div className="grid max-w-3xl gap-6">
        <Card title="Server">
          <Facts
            rows={{
              Issuer: <code className="font-mono text-xs">{system.issuer}</code>,
              Database: system.database,
              'Throttling counters': `In ${system.throttleCounters}`,
            }}
          />
        </Card>
        <Card title="Mail" description="Password reset links go out by mail.">
          <Facts
            rows={{
              'Mail goes to': system.mail.destination,
              'Forgot your password?': system.mail.passwordReset ? 'Offered on the sign-in page' : 'Not offered: without mail, an admin sets new passwords',
            }}
          />
        </Card>
        <Card title="Two-step verification">
          <Facts rows={{ 'Required for': policies[system.secondFactorRequired] }} />
        </Card>
      </div>
    </>
  );
}
