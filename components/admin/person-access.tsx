// A person's groups and the roles given to them directly, on their page in the portal: lists for whoever may read
// access, and the forms to change them for whoever may manage it (the server actions check again). UI only: the
// actions and the names come from the page.
import type { ReactNode } from 'react';
import { AccessForm, RemoveButton } from '@/components/admin/access-form';
import { border, inputLook } from '@/components/ui/field';
import { Badge } from '@/components/ui/notice';
import type { AccessFormState } from '@/lib/surfaces/portal/access-form-state';

type Action = (state: AccessFormState, form: FormData) => Promise<AccessFormState>;

export interface PersonAccessLabels {
  groups: string;
  roles: string;
  none: string;
  remove: string;
  saving: string;
  join: string;
  give: string;
  group: string;
  role: string;
}

function Chooser({ id, name, label, options }: { id: string; name: string; label: string; options: string[] }) {
  return (
    <div className="min-w-40">
      <label htmlFor={id} className="block text-xs font-medium text-slate-700">
        {label}
      </label>
      <select id={id} name={name} className={`${inputLook} mt-1 bg-white ${border(false)}`}>
        {options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    </div>
  );
}

function Names({ names, none, remove }: { names: string[]; none: string; remove?: (name: string) => ReactNode }) {
  if (!names.length) return <p className="text-sm text-slate-600">{none}</p>;
  return (
    <ul className="flex flex-wrap gap-2">
      {names.map((name) => (
        <li key={name} className="flex items-center gap-1">
          <Badge>{name}</Badge>
          {remove?.(name)}
        </li>
      ))}
    </ul>
  );
}

export function PersonAccess({
  groups,
  roles,
  allGroups,
  allRoles,
  labels,
  actions,
}: {
  groups: string[];
  roles: string[];
  allGroups: string[];
  allRoles: string[];
  labels: PersonAccessLabels;
  /** Left out for a reader: the lists only. */
  actions?: { join: Action; leave: (group: string) => Action; give: Action; take: (role: string) => Action };
}) {
  const otherGroups = allGroups.filter((g) => !groups.includes(g));
  const otherRoles = allRoles.filter((r) => !roles.includes(r));
  const removeLabel = (name: string) => (
    <>
      {labels.remove}
      <span className="sr-only"> {name}</span>
    </>
  );
  return (
    <div className="space-y-4 text-sm">
      <section className="space-y-2">
        <h3 className="font-medium text-slate-900">{labels.groups}</h3>
        <Names
          names={groups}
          none={labels.none}
          remove={actions ? (g) => <RemoveButton action={actions.leave(g)} label={removeLabel(g)} pendingLabel={labels.saving} /> : undefined}
        />
        {actions && otherGroups.length ? (
          <AccessForm action={actions.join} submit={labels.join} pendingLabel={labels.saving} inline>
            <Chooser id="person-group" name="group" label={labels.group} options={otherGroups} />
          </AccessForm>
        ) : null}
      </section>
      <section className="space-y-2">
        <h3 className="font-medium text-slate-900">{labels.roles}</h3>
        <Names
          names={roles}
          none={labels.none}
          remove={actions ? (r) => <RemoveButton action={actions.take(r)} label={removeLabel(r)} pendingLabel={labels.saving} /> : undefined}
        />
        {actions && otherRoles.length ? (
          <AccessForm action={actions.give} submit={labels.give} pendingLabel={labels.saving} inline>
            <Chooser id="person-role" name="role" label={labels.role} options={otherRoles} />
          </AccessForm>
        ) : null}
      </section>
    </div>
  );
}
