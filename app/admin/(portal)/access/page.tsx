// /admin/access: who may do what — the APIs and their permissions, the roles and whom they are given to, the groups and
// their members, the machine clients' permissions. An admin whose role may change access (access.manage) sees the forms;
// a reader (the auditor) sees the lists only. The server actions check the role themselves (./actions.ts).
import type { Metadata } from 'next';
import type { ComponentProps, ReactNode } from 'react';
import { getTranslations } from 'next-intl/server';
import { AccessForm, type RemoveButton } from '@/components/admin/access-form';
import { TextLink } from '@/components/ui/button';
import { PageHeader } from '@/components/ui/card';
import { Badge, NoticeFor } from '@/components/ui/notice';
import { may } from '@/lib/admin-roles/roles';
import { accessView } from '@/lib/surfaces/portal/authorization';
import { requireAdmin } from '@/lib/surfaces/portal/session';
import * as act from './actions';
import { Check, DeleteDisclosure, Disclosure, NamedDisclosure, permissionOptions, Remove, Select, TableCard, TextInput } from './fields';

export const dynamic = 'force-dynamic';
export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('admin.access'))('title') };
}

const NOTICES = [
  'api_created',
  'api_saved',
  'api_deleted',
  'permission_saved',
  'permission_removed',
  'role_created',
  'role_saved',
  'role_deleted',
  'group_created',
  'group_saved',
  'group_deleted',
  'client_saved',
] as const;

const cell = 'px-4 py-3 align-top';

/** A row's delete control, in the kind's own words (`deleteRole`, `deleteRoleStatement`…). */
async function DeleteRow({ kind, name, action }: { kind: 'Api' | 'Role' | 'Group'; name: string; action: ComponentProps<typeof DeleteDisclosure>['action'] }) {
  const t = await getTranslations('admin.access');
  return (
    <DeleteDisclosure
      label={t(`delete${kind}`)}
      name={name}
      action={action}
      statement={t.rich(`delete${kind}Statement`, { name, strong: (chunks) => <strong>{chunks}</strong> })}
      pendingLabel={t('deleting')}
    />
  );
}

/** A role's or a group's first cell: its name, its description, and (children) its delete control for an admin who may. */
function NameCell({ name, description, children }: { name: string; description: string | null; children: ReactNode }) {
  return (
    <td className={cell}>
      <Badge>{name}</Badge>
      {description ? <span className="mt-1 block text-slate-600">{description}</span> : null}
      {children}
    </td>
  );
}

/** The form that creates a role or a group: a name and a description, behind the kind's own words (`newRole`, `createRole`…). */
async function CreateNamed({ kind, action }: { kind: 'Role' | 'Group'; action: ComponentProps<typeof AccessForm>['action'] }) {
  const t = await getTranslations('admin.access');
  const id = `new-${kind.toLowerCase()}`;
  return (
    <Disclosure summary={t(`new${kind}`)}>
      <AccessForm action={action} submit={t(`create${kind}`)} pendingLabel={t('saving')} variant="primary" inline>
        <TextInput id={`${id}-name`} name="name" label={t('fields.name')} required />
        <TextInput id={`${id}-description`} name="description" label={t('fields.description')} className="min-w-72" />
      </AccessForm>
    </Disclosure>
  );
}

/**
 * The permissions a role or a machine client holds, each with its remove button for an admin who may (named for
 * screen readers by the permission and the holder), then the form that grants another.
 */
function GrantedPermissions({
  holder,
  granted,
  apiByIdentifier,
  revoke,
  grant,
  labels,
}: {
  holder: string;
  granted: { api: string; permission: string }[];
  apiByIdentifier: Map<string, { id: string; name: string }>;
  /** The remove button's action, or none (a reader; an API gone). */
  revoke: (
    granted: { api: string; permission: string },
    api: { id: string; name: string } | undefined,
  ) => ComponentProps<typeof RemoveButton>['action'] | undefined;
  grant?: { action: ComponentProps<typeof AccessForm>['action']; selectId: string; options: ReturnType<typeof permissionOptions> };
  labels: { remove: string; grantPermission: string; grant: string; permission: string; saving: string };
}) {
  return (
    <>
      <ul className="space-y-1">
        {granted.map((p) => {
          const api = apiByIdentifier.get(p.api);
          const action = revoke(p, api);
          return (
            <li key={`${p.api} ${p.permission}`}>
              <code className="font-mono text-xs">{p.permission}</code> <span className="text-slate-600">({api?.name ?? p.api})</span>{' '}
              {action ? <Remove action={action} name={`${p.permission} (${holder})`} labels={labels} /> : null}
            </li>
          );
        })}
      </ul>
      {grant ? (
        <NamedDisclosure label={labels.grantPermission} name={holder}>
          <AccessForm action={grant.action} submit={labels.grant} pendingLabel={labels.saving} inline>
            <Select id={grant.selectId} name="permission" label={labels.permission} options={grant.options} />
          </AccessForm>
        </NamedDisclosure>
      ) : null}
    </>
  );
}

export default async function AccessPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const admin = await requireAdmin('access.read', '/admin/access');
  const manage = may(admin.role, 'access.manage');
  const { apis, roles, groups, clients } = await accessView();
  const { notice } = await searchParams;
  const t = await getTranslations('admin.access');
  const apiByIdentifier = new Map(apis.map((api) => [api.identifier, api]));
  const permissions = permissionOptions(apis);
  const notices = Object.fromEntries([
    ...NOTICES.map((key) => [key, { variant: 'success' as const, text: t(`notices.${key}`) }]),
    ['gone', { variant: 'error' as const, text: t('notices.gone') }],
  ]);
  const saving = t('saving');
  const labels = { remove: t('remove'), grantPermission: t('grantPermission'), grant: t('grant'), permission: t('fields.permission'), saving };

  return (
    <>
      <PageHeader title={t('title')} description={t('description')} actions={<TextLink href="/admin/access/attributes">{t('attributesLink')}</TextLink>} />
      <NoticeFor notices={notices} notice={notice} />
      <div className="grid gap-6">
        <TableCard
          title={t('apis')}
          columns={(['api', 'permissions', 'tokens'] as const).map((c) => t(`columns.${c}`))}
          empty={t('noApis')}
          rows={apis.map((api) => (
            <tr key={api.id}>
              <td className={cell}>
                <span className="block font-medium">{api.name}</span>
                <code className="font-mono text-xs break-all text-slate-600">{api.identifier}</code>
                {manage ? <DeleteRow kind="Api" name={api.name} action={act.deleteApiAction.bind(null, api.id)} /> : null}
              </td>
              <td className={cell}>
                <ul className="space-y-1">
                  {api.permissions.map((p) => (
                    <li key={p.name}>
                      <code className="font-mono text-xs">{p.name}</code>
                      {p.description ? <span className="text-slate-600"> — {p.description}</span> : null}{' '}
                      {manage ? (
                        <Remove action={act.removePermissionAction.bind(null, api.id, p.name)} name={`${p.name} (${api.name})`} labels={labels} />
                      ) : null}
                    </li>
                  ))}
                </ul>
                {manage ? (
                  <NamedDisclosure label={t('addPermission')} name={api.name}>
                    <AccessForm action={act.setPermissionAction.bind(null, api.id)} submit={t('savePermission')} pendingLabel={saving}>
                      <TextInput id={`perm-${api.id}`} name="permission" label={t('fields.permission')} placeholder="orders:read" required />
                      <TextInput id={`perm-desc-${api.id}`} name="description" label={t('fields.permissionDescription')} />
                    </AccessForm>
                  </NamedDisclosure>
                ) : null}
              </td>
              <td className={cell}>
                {t('tokenSettings', { format: api.tokenFormat.toUpperCase(), seconds: api.tokenLifetime })}
                {api.tokenFormat === 'jwt' ? <span className="block text-slate-600">{api.signingAlg}</span> : null}
                {api.rolesInToken ? <span className="block text-slate-600">{t('rolesInToken')}</span> : null}
                {manage ? (
                  <NamedDisclosure label={t('editApi')} name={api.name}>
                    <AccessForm action={act.updateApiAction.bind(null, api.id)} submit={t('saveApi')} pendingLabel={saving}>
                      <ApiSettings id={api.id} values={api} />
                    </AccessForm>
                  </NamedDisclosure>
                ) : null}
              </td>
            </tr>
          ))}
        >
          {manage ? (
            <Disclosure summary={t('newApi')}>
              <AccessForm action={act.createApiAction} submit={t('createApi')} pendingLabel={saving} variant="primary">
                <TextInput
                  id="new-api-identifier"
                  name="identifier"
                  label={t('fields.identifier')}
                  placeholder="https://api.example.com/"
                  required
                  className="min-w-72"
                />
                <ApiSettings id="new" values={{ name: '', tokenFormat: 'jwt', tokenLifetime: 300, signingAlg: 'ES256', rolesInToken: false }} />
              </AccessForm>
            </Disclosure>
          ) : null}
        </TableCard>

        <TableCard
          title={t('roles')}
          columns={(['role', 'grants', 'holders'] as const).map((c) => t(`columns.${c}`))}
          empty={t('noRoles')}
          rows={roles.map((role) => (
            <tr key={role.id}>
              <NameCell name={role.name} description={role.description}>
                {manage ? <DeleteRow kind="Role" name={role.name} action={act.deleteRoleAction.bind(null, role.name)} /> : null}
              </NameCell>
              <td className={cell}>
                <GrantedPermissions
                  holder={role.name}
                  granted={role.permissions}
                  apiByIdentifier={apiByIdentifier}
                  revoke={(p, api) => (manage && api ? act.revokeRolePermissionAction.bind(null, role.name, api.id, p.permission) : undefined)}
                  grant={
                    manage && permissions.length
                      ? { action: act.grantRolePermissionAction.bind(null, role.name), selectId: `role-perm-${role.id}`, options: permissions }
                      : undefined
                  }
                  labels={labels}
                />
              </td>
              <td className={cell}>
                <ul className="space-y-1">
                  {role.users.map((u) => (
                    <li key={u.id}>
                      {t('person', { name: u.username })}{' '}
                      {manage ? (
                        <Remove action={act.unassignRoleFromUserAction.bind(null, role.name, u.id)} name={`${u.username} (${role.name})`} labels={labels} />
                      ) : null}
                    </li>
                  ))}
                  {role.groups.map((g) => (
                    <li key={g}>
                      {t('group', { name: g })}{' '}
                      {manage ? (
                        <Remove action={act.unassignRoleFromGroupAction.bind(null, role.name, g)} name={`${g} (${role.name})`} labels={labels} />
                      ) : null}
                    </li>
                  ))}
                </ul>
                {manage ? (
                  <NamedDisclosure label={t('giveRole')} name={role.name}>
                    <div className="space-y-3">
                      <AccessForm action={act.assignRoleAction.bind(null, role.name)} submit={t('giveToPerson')} pendingLabel={saving} inline>
                        <TextInput id={`role-user-${role.id}`} name="username" label={t('fields.username')} required />
                      </AccessForm>
                      {groups.length ? (
                        <AccessForm action={act.assignRoleAction.bind(null, role.name)} submit={t('giveToGroup')} pendingLabel={saving} inline>
                          <Select
                            id={`role-group-${role.id}`}
                            name="group"
                            label={t('fields.group')}
                            options={groups.map((g) => ({ value: g.name, label: g.name }))}
                          />
                        </AccessForm>
                      ) : null}
                    </div>
                  </NamedDisclosure>
                ) : null}
              </td>
            </tr>
          ))}
        >
          {manage ? <CreateNamed kind="Role" action={act.createRoleAction} /> : null}
        </TableCard>

        <TableCard
          title={t('groups')}
          columns={(['group', 'members', 'groupRoles'] as const).map((c) => t(`columns.${c}`))}
          empty={t('noGroups')}
          rows={groups.map((group) => (
            <tr key={group.name}>
              <NameCell name={group.name} description={group.description}>
                {manage ? <DeleteRow kind="Group" name={group.name} action={act.deleteGroupAction.bind(null, group.name)} /> : null}
              </NameCell>
              <td className={cell}>
                <ul className="space-y-1">
                  {group.members.map((m) => (
                    <li key={m.id}>
                      {m.username}{' '}
                      {manage ? (
                        <Remove action={act.removeMemberAction.bind(null, group.name, m.id)} name={`${m.username} (${group.name})`} labels={labels} />
                      ) : null}
                    </li>
                  ))}
                </ul>
                {manage ? (
                  <NamedDisclosure label={t('addMember')} name={group.name}>
                    <AccessForm action={act.addMemberAction.bind(null, group.name)} submit={t('add')} pendingLabel={saving} inline>
                      <TextInput id={`member-${group.name}`} name="username" label={t('fields.username')} required />
                    </AccessForm>
                  </NamedDisclosure>
                ) : null}
              </td>
              <td className={cell}>{group.roles.join(', ')}</td>
            </tr>
          ))}
        >
          {manage ? <CreateNamed kind="Group" action={act.createGroupAction} /> : null}
        </TableCard>

        <TableCard
          title={t('machineClients')}
          description={t('machineClientsDescription')}
          columns={(['client', 'permissions'] as const).map((c) => t(`columns.${c}`))}
          empty={t('noMachineClients')}
          rows={clients.map((client) => (
            <tr key={client.id}>
              <td className={cell}>
                <span className="block font-medium">{client.name}</span>
                <code className="font-mono text-xs break-all text-slate-600">{client.id}</code>
              </td>
              <td className={cell}>
                <GrantedPermissions
                  holder={client.name}
                  granted={client.permissions}
                  apiByIdentifier={apiByIdentifier}
                  revoke={(p) => (manage ? act.revokeClientPermissionAction.bind(null, client.id, p.api, p.permission) : undefined)}
                  grant={
                    manage && permissions.length
                      ? { action: act.grantClientPermissionAction.bind(null, client.id), selectId: `client-perm-${client.id}`, options: permissions }
                      : undefined
                  }
                  labels={labels}
                />
              </td>
            </tr>
          ))}
        />
        {manage ? null : <p className="text-sm text-slate-600">{t('readOnly')}</p>}
      </div>
    </>
  );
}

/** An API's token settings: the same fields when it is registered and when it is changed. */
async function ApiSettings({
  id,
  values,
}: {
  id: string;
  values: { name: string; tokenFormat: string; tokenLifetime: number; signingAlg: string; rolesInToken: boolean };
}) {
  const t = await getTranslations('admin.access');
  return (
    <>
      <TextInput id={`api-name-${id}`} name="name" label={t('fields.name')} defaultValue={values.name} required />
      <div className="flex flex-wrap gap-3">
        <Select
          id={`api-format-${id}`}
          name="tokenFormat"
          label={t('fields.tokenFormat')}
          defaultValue={values.tokenFormat}
          options={[
            { value: 'jwt', label: t('formats.jwt') },
            { value: 'opaque', label: t('formats.opaque') },
          ]}
        />
        <TextInput
          id={`api-lifetime-${id}`}
          name="tokenLifetime"
          type="number"
          label={t('fields.tokenLifetime')}
          defaultValue={values.tokenLifetime}
          required
        />
        <Select
          id={`api-alg-${id}`}
          name="signingAlg"
          label={t('fields.signingAlg')}
          defaultValue={values.signingAlg}
          options={[
            { value: 'ES256', label: 'ES256' },
            { value: 'RS256', label: 'RS256' },
          ]}
        />
      </div>
      <Check id={`api-roles-${id}`} name="rolesInToken" label={t('fields.rolesInToken')} defaultChecked={values.rolesInToken} />
    </>
  );
}
