// /admin/system: how this server is set up — issuer, storage, where mail goes, the second-factor policy —
// and its signing keys, the one thing rotated here (lib/services/signing-keys.ts).
import type { Metadata } from 'next';
import { RotateKeysForm } from '@/components/admin/key-actions';
import { Facts } from '@/components/portal/detail';
import { DataTable } from '@/components/portal/list';
import { Card, PageHeader } from '@/components/ui/card';
import { Badge } from '@/components/ui/notice';
import { Time } from '@/components/ui/time';
import { requireAdmin } from '@/lib/services/portal/session';
import { signingKeysView, systemView } from '@/lib/services/portal/system';
import { rotateKeysAction } from './actions';

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
  const keys = await signingKeysView();
  const { days, publishAheadHours } = system.keyRotation;
  return (
    <>
      <PageHeader
        title="System"
        description="How this server is set up. Change it with the environment variables the README lists, then restart. The signing keys rotate here too."
      />
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
        <Card
          title="Signing keys"
          description={`ID tokens are signed with the current key of their algorithm. ${
            days > 0 ? `Each key is replaced after ${days} days (KEY_ROTATION_DAYS)` : 'Automatic rotation is off (KEY_ROTATION_DAYS=0)'
          }; a new key is published ${publishAheadHours} hours before it signs.`}
        >
          <div className="space-y-4">
            <DataTable
              caption="Published signing keys, with their states"
              columns={[{ label: 'Key id' }, { label: 'Algorithm' }, { label: 'State' }, { label: 'Signs from' }, { label: 'Retired' }]}
              empty="No signing keys yet."
              rows={keys.map((key) => (
                <tr key={key.kid}>
                  <td className="px-4 py-3 font-mono text-xs">{key.kid}</td>
                  <td className="px-4 py-3">{key.alg}</td>
                  <td className="px-4 py-3">
                    <Badge variant={key.state === 'current' ? 'indigo' : key.state === 'next' ? 'amber' : 'slate'}>{key.state}</Badge>
                  </td>
                  <td className="px-4 py-3">{key.activatesAt ? <Time date={new Date(key.activatesAt)} /> : null}</td>
                  <td className="px-4 py-3">{key.state === 'previous' ? <Time date={new Date(key.retireAfter)} /> : null}</td>
                </tr>
              ))}
            />
            <RotateKeysForm action={rotateKeysAction} publishAheadHours={publishAheadHours} />
          </div>
        </Card>
      </div>
    </>
  );
}
