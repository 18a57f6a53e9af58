// /admin/access: who may do what — the APIs and their permissions, the roles and whom they are given to,
// the groups. Read-only here: the CLI and the admin API change them (docs/authorization.md).
import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { DataTable } from '@/components/portal/list';
import { Card, PageHeader } from '@/components/ui/card';
import { Badge } from '@/components/ui/notice';
import { accessView } from '@/lib/surfaces/portal/authorization';
import { requireAdmin } from '@/lib/surfaces/portal/session';

export const dynamic = 'force-dynamic';
export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('admin.access'))('title') };
}

export default async function AccessPage() {
  await requireAdmin('/admin/access');
  const { apis, roles, groups } = await accessView();
  const t = await getTranslations('admin.access');
  const apiByIdentifier = new Map(apis.map((api) => [api.identifier, api.name]));
  return (
    <>
      <PageHeader title={t('title')} description={t('description')} />
      <div className="grid gap-6">
        <Card title={t('apis')}>
          <DataTable
            caption={t('apis')}
            columns={(['api', 'permissions', 'tokens'] as const).map((c) => ({ label: t(`columns.${c}`) }))}
            empty={t('noApis')}
            rows={apis.map((api) => (
              <tr key={api.id}>
                <td className="px-4 py-3 align-top">
                  <span className="block font-medium">{api.name}</span>
                  <code className="font-mono text-xs break-all text-slate-600">{api.identifier}</code>
                </td>
                <td className="px-4 py-3 align-top">
                  <ul className="space-y-1">
                    {api.permissions.map((p) => (
                      <li key={p.name}>
                        <code className="font-mono text-xs">{p.name}</code>
                        {p.description ? <span className="text-slate-600"> — {p.description}</span> : null}
                      </li>
                    ))}
                  </ul>
                </td>
                <td className="px-4 py-3 align-top">
                  {t('tokenSettings', { format: api.tokenFormat.toUpperCase(), seconds: api.tokenLifetime })}
                  {api.tokenFormat === 'jwt' ? <span className="block text-slate-600">{api.signingAlg}</span> : null}
                  {api.rolesInToken ? <span className="block text-slate-600">{t('rolesInToken')}</span> : null}
                </td>
              </tr>
            ))}
          />
        </Card>
        <Card title={t('roles')}>
          <DataTable
            caption={t('roles')}
            columns={(['role', 'grants', 'holders'] as const).map((c) => ({ label: t(`columns.${c}`) }))}
            empty={t('noRoles')}
            rows={roles.map((role) => (
              <tr key={role.id}>
                <td className="px-4 py-3 align-top">
                  <Badge>{role.name}</Badge>
                  {role.description ? <span className="mt-1 block text-slate-600">{role.description}</span> : null}
                </td>
                <td className="px-4 py-3 align-top">
                  <ul className="space-y-1">
                    {role.permissions.map((p) => (
                      <li key={`${p.api} ${p.permission}`}>
                        <code className="font-mono text-xs">{p.permission}</code>{' '}
                        <span className="text-slate-600">({apiByIdentifier.get(p.api) ?? p.api})</span>
                      </li>
                    ))}
                  </ul>
                </td>
                <td className="px-4 py-3 align-top">
                  {role.users.length ? <span className="block">{t('people', { names: role.users.map((u) => u.username).join(', ') })}</span> : null}
                  {role.groups.length ? <span className="block">{t('groupsList', { names: role.groups.join(', ') })}</span> : null}
                </td>
              </tr>
            ))}
          />
        </Card>
        <Card title={t('groups')}>
          <DataTable
            caption={t('groups')}
            columns={(['group', 'members', 'groupRoles'] as const).map((c) => ({ label: t(`columns.${c}`) }))}
            empty={t('noGroups')}
            rows={groups.map((group) => (
              <tr key={group.name}>
                <td className="px-4 py-3 align-top">
                  <Badge>{group.name}</Badge>
                  {group.description ? <span className="mt-1 block text-slate-600">{group.description}</span> : null}
                </td>
                <td className="px-4 py-3 align-top">{group.members}</td>
                <td className="px-4 py-3 align-top">{group.roles.join(', ')}</td>
              </tr>
            ))}
          />
        </Card>
        <p className="text-sm text-slate-600">{t('howToChange')}</p>
      </div>
    </>
  );
}
