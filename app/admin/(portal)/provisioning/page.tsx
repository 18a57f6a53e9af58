// /admin/provisioning: the tokens SCIM provisioning clients (an HR system, Okta, Entra ID) use at /scim/v2
// (lib/scim/tokens.ts): when each was last used, issuing one (shown once) and revoking one.
import type { Metadata } from 'next';
import { getFormatter, getTranslations } from 'next-intl/server';
import { DataTable } from '@/components/portal/list';
import { TokenName, TokenState } from '@/components/portal/token-state';
import { FormPanel, PageHeader } from '@/components/ui/card';
import { Badge, Notice, NoticeFor } from '@/components/ui/notice';
import { ScimTokenForm } from '@/components/admin/scim-token-form';
import { may } from '@/lib/admin-roles/roles';
import { listScimTokensFor } from '@/lib/surfaces/portal/provisioning';
import { requireAdmin } from '@/lib/surfaces/portal/session';
import { issueScimTokenAction, revokeScimTokenAction } from './actions';

export const dynamic = 'force-dynamic';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('admin.provisioning'))('title') };
}

export default async function ProvisioningPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const admin = await requireAdmin('access.read', '/admin/provisioning');
  const { enabled, baseUrl, tokens } = await listScimTokensFor(admin);
  const { notice } = await searchParams;
  const t = await getTranslations('admin.provisioning');
  const format = await getFormatter();
  const manage = may(admin.role, 'access.manage');
  const cell = 'px-4 py-3 align-top';
  const code = (chunks: React.ReactNode) => <code className="font-mono">{chunks}</code>;

  return (
    <>
      <PageHeader title={t('title')} description={t('description')} />
      <NoticeFor notices={{ revoked: { variant: 'success', text: t('revoked') }, notRevoked: { variant: 'warning', text: t('notRevoked') } }} notice={notice} />
      <Notice variant={enabled ? 'success' : 'warning'}>{enabled ? t.rich('on', { code, url: baseUrl }) : t.rich('off', { code })}</Notice>
      <DataTable
        caption={t('caption')}
        columns={[{ label: t('name') }, { label: t('lastUsed') }, { label: t('status') }]}
        empty={t('none')}
        rows={tokens.map((token) => (
          <tr key={token.id}>
            <td className={cell}>
              <TokenName name={token.name} issued={t('issued', { when: format.dateTime(token.createdAt, { dateStyle: 'medium' }) })} />
            </td>
            <td className={cell}>{token.lastUsedAt ? format.dateTime(token.lastUsedAt, { dateStyle: 'medium', timeStyle: 'short' }) : t('never')}</td>
            <td className={cell}>
              <TokenState
                badge={<Badge variant={token.revokedAt ? 'red' : 'green'}>{t(token.revokedAt ? 'revokedState' : 'liveState')}</Badge>}
                name={token.name}
                revoke={manage && !token.revokedAt ? revokeScimTokenAction.bind(null, token.id) : undefined}
              />
            </td>
          </tr>
        ))}
      />
      {manage ? (
        <FormPanel id="issue-heading" title={t('issueHeading')}>
          <ScimTokenForm action={issueScimTokenAction} />
        </FormPanel>
      ) : null}
    </>
  );
}
