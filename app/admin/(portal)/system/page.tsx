// /admin/system: how this server is set up — issuer, storage, where mail goes, the second-factor policy —
// and its signing keys, the one thing rotated here (lib/keys/signing-keys.ts).
import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { RotateKeysForm } from '@/components/admin/key-actions';
import { Facts } from '@/components/portal/detail';
import { DataTable } from '@/components/portal/list';
import { Card, PageHeader } from '@/components/ui/card';
import { Badge } from '@/components/ui/notice';
import { Time } from '@/components/ui/time';
import { may } from '@/lib/admin-roles/roles';
import { requireAdmin } from '@/lib/surfaces/portal/session';
import { signingKeysView, systemView } from '@/lib/surfaces/portal/system';
import { rotateKeysAction } from './actions';

export const dynamic = 'force-dynamic';
export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('admin.system'))('title') };
}

export default async function SystemPage() {
  const admin = await requireAdmin('system.read', '/admin/system');
  const system = systemView();
  const keys = await signingKeysView();
  const { days, publishAheadHours } = system.keyRotation;
  const t = await getTranslations('admin.system');
  const facts = await getTranslations('admin.systemFacts');
  // A lifetime in its largest whole unit (14 days, 60 minutes), as the settings' documentation gives them.
  const duration = (seconds: number) => {
    for (const [unit, size] of [
      ['days', 86_400],
      ['hours', 3_600],
      ['minutes', 60],
    ] as const) {
      if (seconds % size === 0) return facts(`durations.${unit}`, { count: seconds / size });
    }
    return facts('durations.seconds', { count: seconds });
  };
  const { mail } = system;
  const mailTo = mail.mode === 'smtp' ? t('mailSmtp', { server: mail.server ?? '' }) : mail.mode === 'log' ? t('mailLog') : t('mailOff');
  const columns = (['kid', 'alg', 'state', 'signsFrom', 'retired'] as const).map((column) => ({ label: t(`columns.${column}`) }));
  return (
    <>
      <PageHeader title={t('title')} description={t('description')} />
      <div className="grid max-w-3xl gap-6">
        <Card title={t('server')}>
          <Facts
            rows={{
              [t('issuer')]: <code className="font-mono text-xs">{system.issuer}</code>,
              [t('database')]: system.database,
              [t('throttle')]: t('throttleIn', { store: system.throttleCounters }),
            }}
          />
        </Card>
        <Card title={facts('signIn')}>
          <Facts
            rows={{
              [facts('signUp')]: system.signUp.open ? facts('signUpOpen') : facts('signUpClosed'),
              ...(system.signUp.open
                ? {
                    [facts('signUpDomains')]: system.signUp.domains.length ? (
                      <ul className="space-y-0.5 font-mono text-xs">
                        {system.signUp.domains.map((domain) => (
                          <li key={domain}>{domain}</li>
                        ))}
                      </ul>
                    ) : (
                      facts('anyDomain')
                    ),
                  }
                : {}),
              [facts('sessionKept')]: duration(system.lifetimes.session),
              [facts('sessionIdle')]: duration(system.lifetimes.sessionIdle),
              [facts('accessToken')]: duration(system.lifetimes.accessToken),
              [facts('refreshToken')]: duration(system.lifetimes.refreshToken),
            }}
          />
        </Card>
        <Card title={facts('passkeys')}>
          {/* One row for availability, and when they are not, why (the issuer's host), as the start-up log says it. */}
          <Facts
            rows={{
              [facts('passkeysAvailable')]: system.passkeysAvailable ? facts('yes') : facts('no'),
              ...(system.passkeysAvailable ? {} : { [t('passkeys')]: t('passkeysNotOffered', { host: new URL(system.issuer).hostname }) }),
            }}
          />
        </Card>
        <Card title={t('mail')} description={t('mailDescription')}>
          <Facts
            rows={{
              [facts('mailConfigured')]: mail.mode === 'smtp' ? facts('yes') : facts('no'),
              [t('mailTo')]: mailTo,
              [t('forgotPassword')]: mail.passwordReset ? t('resetOffered') : t('resetNotOffered'),
            }}
          />
        </Card>
        <Card title={t('twoStep')}>
          <Facts rows={{ [t('requiredFor')]: t(`policies.${system.secondFactorRequired}`) }} />
        </Card>
        <Card title={t('keys')} description={t('keysDescription', { days, hours: publishAheadHours })}>
          <div className="space-y-4">
            <DataTable
              caption={t('keysCaption')}
              columns={columns}
              empty={t('noKeys')}
              rows={keys.map((key) => (
                <tr key={key.kid}>
                  <td className="px-4 py-3 font-mono text-xs">{key.kid}</td>
                  <td className="px-4 py-3">{key.alg}</td>
                  <td className="px-4 py-3">
                    <Badge variant={key.state === 'current' ? 'indigo' : key.state === 'next' ? 'amber' : 'slate'}>{t(`states.${key.state}`)}</Badge>
                  </td>
                  <td className="px-4 py-3">{key.activatesAt ? <Time date={new Date(key.activatesAt)} /> : null}</td>
                  <td className="px-4 py-3">{key.state === 'previous' ? <Time date={new Date(key.retireAfter)} /> : null}</td>
                </tr>
              ))}
            />
            {may(admin.role, 'keys.manage') ? <RotateKeysForm action={rotateKeysAction} publishAheadHours={publishAheadHours} /> : null}
          </div>
        </Card>
      </div>
    </>
  );
}
