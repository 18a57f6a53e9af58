// /admin/access/attributes: the custom user attributes admins declared (key, type, who may change them) and each
// client's claim mapping (which attribute it gets under which claim name). Declarative only: no code runs. A reader
// (the auditor) sees the lists; the forms are for access.manage, which the server actions check themselves.
import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { getTranslations } from 'next-intl/server';
import { AccessForm } from '@/components/admin/access-form';
import { TextLink } from '@/components/ui/button';
import { PageHeader } from '@/components/ui/card';
import { Badge, NoticeFor } from '@/components/ui/notice';
import { may } from '@/lib/admin-roles/roles';
import { attributesView } from '@/lib/surfaces/portal/claims';
import { requireAdmin } from '@/lib/surfaces/portal/session';
import { DeleteDisclosure, Disclosure, Remove, Select, TableCard, TextInput } from '../fields';
import { createAttributeAction, deleteAttributeAction, mapClaimAction, unmapClaimAction } from './actions';

export const dynamic = 'force-dynamic';
export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('admin.attributes'))('title') };
}

const cell = 'px-4 py-3 align-top';

export default async function AttributesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const admin = await requireAdmin('access.read', '/admin/access/attributes');
  const manage = may(admin.role, 'access.manage');
  const { attributes, mappings, clients } = await attributesView();
  const { notice } = await searchParams;
  const t = await getTranslations('admin.attributes');
  const strong = (chunks: ReactNode) => <strong>{chunks}</strong>;
  const clientName = new Map(clients.map((c) => [c.id, c.name]));
  const notices = {
    attribute_created: { variant: 'success', text: t('notices.attribute_created') },
    attribute_deleted: { variant: 'success', text: t('notices.attribute_deleted') },
    claim_mapped: { variant: 'success', text: t('notices.claim_mapped') },
    claim_unmapped: { variant: 'success', text: t('notices.claim_unmapped') },
    gone: { variant: 'error', text: t('notices.gone') },
  } as const;
  const saving = t('saving');
  const labels = { remove: t('remove'), saving };

  return (
    <>
      <PageHeader title={t('title')} description={t('description')} actions={<TextLink href="/admin/access">{t('back')}</TextLink>} />
      <NoticeFor notices={notices} notice={notice} />
      <div className="grid gap-6">
        <TableCard
          title={t('attributes')}
          columns={(['attribute', 'type', 'editableBy'] as const).map((c) => t(`columns.${c}`))}
          empty={t('noAttributes')}
          rows={attributes.map((attribute) => (
            <tr key={attribute.id}>
              <td className={cell}>
                <span className="block font-medium">{attribute.name}</span>
                <code className="font-mono text-xs text-slate-600">{attribute.key}</code>
                {manage ? (
                  <DeleteDisclosure
                    label={t('delete')}
                    name={attribute.key}
                    action={deleteAttributeAction.bind(null, attribute.key)}
                    statement={t.rich('deleteStatement', { key: attribute.key, strong })}
                    pendingLabel={t('deleting')}
                  />
                ) : null}
              </td>
              <td className={cell}>{t(`types.${attribute.type}`)}</td>
              <td className={cell}>
                {attribute.editableBy === 'user' ? <Badge variant="indigo">{t('editors.user')}</Badge> : <Badge>{t('editors.admin')}</Badge>}
              </td>
            </tr>
          ))}
        >
          {manage ? (
            <Disclosure summary={t('newAttribute')}>
              <AccessForm action={createAttributeAction} submit={t('create')} pendingLabel={saving} variant="primary" inline>
                <TextInput id="attribute-key" name="key" label={t('fields.key')} placeholder="department" required />
                <TextInput id="attribute-name" name="name" label={t('fields.name')} required />
                <Select
                  id="attribute-type"
                  name="type"
                  label={t('fields.type')}
                  options={(['string', 'number', 'boolean'] as const).map((type) => ({ value: type, label: t(`types.${type}`) }))}
                />
                <Select
                  id="attribute-editors"
                  name="editableBy"
                  label={t('fields.editableBy')}
                  options={(['admin', 'user'] as const).map((editor) => ({ value: editor, label: t(`editors.${editor}`) }))}
                />
              </AccessForm>
            </Disclosure>
          ) : null}
        </TableCard>

        <TableCard
          title={t('mappings')}
          description={t('mappingsDescription')}
          columns={(['client', 'claim', 'attribute'] as const).map((c) => t(`columns.${c}`))}
          empty={t('noMappings')}
          rows={mappings.map((mapping) => (
            <tr key={`${mapping.clientId} ${mapping.claim}`}>
              <td className={cell}>
                <span className="block font-medium">{clientName.get(mapping.clientId) ?? mapping.clientId}</span>
                <code className="font-mono text-xs break-all text-slate-600">{mapping.clientId}</code>
              </td>
              <td className={cell}>
                <code className="font-mono text-xs break-all">{mapping.claim}</code>{' '}
                {manage ? <Remove action={unmapClaimAction.bind(null, mapping.clientId, mapping.claim)} name={mapping.claim} labels={labels} /> : null}
              </td>
              <td className={cell}>
                <code className="font-mono text-xs">{mapping.attribute}</code>
              </td>
            </tr>
          ))}
        >
          {manage && attributes.length && clients.length ? (
            <Disclosure summary={t('newMapping')}>
              <AccessForm action={mapClaimAction} submit={t('map')} pendingLabel={saving} variant="primary" inline>
                <Select
                  id="mapping-client"
                  name="client"
                  label={t('fields.client')}
                  options={clients.map((c) => ({ value: c.id, label: `${c.name} (${c.id})` }))}
                />
                <TextInput id="mapping-claim" name="claim" label={t('fields.claim')} placeholder="department" required />
                <Select
                  id="mapping-attribute"
                  name="attribute"
                  label={t('fields.attribute')}
                  options={attributes.map((a) => ({ value: a.key, label: a.name }))}
                />
              </AccessForm>
            </Disclosure>
          ) : null}
        </TableCard>
      </div>
    </>
  );
}
