// /admin/registration: the initial access tokens clients register themselves with (dynamic client registration,
// lib/registration/tokens.ts): their limits and use, issuing one (shown once) and revoking one.
import type { Metadata } from 'next';
import { getFormatter, getTranslations } from 'next-intl/server';
import { DataTable } from '@/components/portal/list';
import { TokenName, TokenState } from '@/components/portal/token-state';
import { FormPanel, PageHeader } from '@/components/ui/card';
import { TextLink } from '@/components/ui/button';
import { Badge, Notice, NoticeFor } from '@/components/ui/notice';
import { RegistrationTokenForm } from '@/components/admin/registration-token-form';
import { may } from '@/lib/admin-roles/roles';
import { REGISTRABLE_GRANT_TYPES, REGISTRABLE_SCOPES, tokenState } from '@/lib/registration/tokens';
import { NEW_REGISTRATION_TOKEN } from '@/lib/surfaces/portal/registration-token-fields';
import { listRegistrationTokensFor } from '@/lib/surfaces/portal/registration';
import { requireAdmin } from '@/lib/surfaces/portal/session';
import { issueRegistrationTokenAction, revokeRegistrationTokenAction } from './actions';

export const dynamic = 'force-dynamic';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('admin.registration'))('title') };
}

export default async function RegistrationPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const admin = await requireAdmin('clients.read', '/admin/registration');
  const { mode, tokens, now } = await listRegistrationTokensFor(admin);
  const { notice } = await searchParams;
  const t = await getTranslations('admin.registration');
  const format = await getFormatter();
  const manage = may(admin.role, 'clients.manage');
  const cell = 'px-4 py-3 align-top';
  const list = (items: string[]) => (items.length ? items.join(', ') : t('any'));

  return (
    <>
      <PageHeader title={t('title')} description={t('description')} />
      <NoticeFor notices={{ revoked: { variant: 'success', text: t('revoked') }, notRevoked: { variant: 'warning', text: t('notRevoked') } }} notice={notice} />
      <Notice variant={mode === 'token' ? 'success' : 'warning'}>
        {t.rich(`mode.${mode}`, { code: (chunks) => <code className="font-mono">{chunks}</code> })} <TextLink href="/admin/clients">{t('clients')}</TextLink>
      </Notice>
      <DataTable
        caption={t('caption')}
        columns={[{ label: t('name') }, { label: t('used') }, { label: t('limits') }, { label: t('expires') }, { label: t('status') }]}
        empty={t('none')}
        rows={tokens.map((token) => {
          const state = ({ live: 'liveState', revoked: 'revokedState', expired: 'expiredState', used_up: 'usedUpState' } as const)[tokenState(token, now)];
          return (
            <tr key={token.id}>
              <td className={cell}>
                <TokenName name={token.name} issued={t('issued', { when: format.dateTime(token.createdAt, { dateStyle: 'medium' }) })} />
              </td>
              <td className={cell}>{t('usedCount', { used: token.clientsRegistered, max: token.maxClients })}</td>
              <td className={cell}>
                <dl className="space-y-0.5 text-xs text-slate-700">
                  <div>
                    <dt className="inline font-medium">{t('hosts')}: </dt>
                    <dd className="inline font-mono">{list(token.redirectHosts)}</dd>
                  </div>
                  <div>
                    <dt className="inline font-medium">{t('grantTypes')}: </dt>
                    <dd className="inline font-mono">{list(token.grantTypes)}</dd>
                  </div>
                  <div>
                    <dt className="inline font-medium">{t('scopes')}: </dt>
                    <dd className="inline font-mono">{list(token.scopes)}</dd>
                  </div>
                  {token.requireApproval ? <div>{t('approval')}</div> : null}
                </dl>
              </td>
              <td className={cell}>{format.dateTime(token.expiresAt, { dateStyle: 'medium', timeStyle: 'short' })}</td>
              <td className={cell}>
                <TokenState
                  badge={<Badge variant={state === 'liveState' ? 'green' : state === 'revokedState' ? 'red' : 'slate'}>{t(state)}</Badge>}
                  name={token.name}
                  revoke={manage && !token.revokedAt ? revokeRegistrationTokenAction.bind(null, token.id) : undefined}
                />
              </td>
            </tr>
          );
        })}
      />
      {manage ? (
        <FormPanel id="issue-heading" title={t('issueHeading')}>
          <RegistrationTokenForm
            action={issueRegistrationTokenAction}
            initial={NEW_REGISTRATION_TOKEN}
            grantTypes={REGISTRABLE_GRANT_TYPES}
            scopes={REGISTRABLE_SCOPES}
          />
        </FormPanel>
      ) : null}
    </>
  );
}
