// /admin/connections/sign-in-pages: each app's password form beside the connections it offers (lib/federation/client-sign-in.ts).
import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { DataTable } from '@/components/portal/list';
import { PageHeader } from '@/components/ui/card';
import { Button } from '@/components/ui/button';
import { Badge, NoticeFor } from '@/components/ui/notice';
import { clientSignInFor } from '@/lib/surfaces/portal/connections';
import { requireAdmin } from '@/lib/surfaces/portal/session';
import { setPasswordFormAction } from '../actions';

export const dynamic = 'force-dynamic';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('admin.connections'))('signInPages') };
}

export default async function SignInPagesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const signInPages = await clientSignInFor(await requireAdmin('system.read', '/admin/connections/sign-in-pages'));
  const { notice } = await searchParams;
  const t = await getTranslations('admin.connections');
  const cell = 'px-4 py-3';

  return (
    <>
      <PageHeader title={t('signInPages')} description={t('signInPagesDescription')} />
      <NoticeFor
        notices={{
          passwordOn: { variant: 'success', text: t('passwordOnDone') },
          passwordOff: { variant: 'success', text: t('passwordOffDone') },
        }}
        notice={notice}
      />
      <DataTable
        caption={t('signInPages')}
        columns={[{ label: t('app') }, { label: t('title') }, { label: t('passwordForm') }, { label: t('change'), hidden: true }]}
        empty={t('noSignInPages')}
        rows={signInPages.map((entry) => (
          <tr key={entry.clientId}>
            <td className={cell}>
              {entry.clientName}
              <span className="block font-mono text-xs text-slate-600">{entry.clientId}</span>
            </td>
            <td className={cell}>{entry.connections.length ? entry.connections.join(', ') : t('noneOffered')}</td>
            <td className={cell}>{entry.passwordForm ? <Badge variant="green">{t('passwordShown')}</Badge> : <Badge>{t('passwordOff')}</Badge>}</td>
            <td className={cell}>
              <form action={setPasswordFormAction.bind(null, entry.clientId, !entry.passwordForm)}>
                <Button type="submit" variant="secondary" aria-label={t(entry.passwordForm ? 'turnOffFor' : 'turnOnFor', { app: entry.clientName })}>
                  {t(entry.passwordForm ? 'turnOff' : 'turnOn')}
                </Button>
              </form>
            </td>
          </tr>
        ))}
      />
    </>
  );
}
