// The building blocks of /admin/access's pages: small labelled controls (ids from what the form is about, so each label
// names its control), the disclosures that hold the forms, the remove and delete controls named for screen readers by
// what they act on (every row has the same ones), and the card holding a table.
import type { ComponentProps, ReactNode } from 'react';
import { RemoveButton } from '@/components/admin/access-form';
import { ConfirmForm } from '@/components/portal/confirm';
import { DataTable } from '@/components/portal/list';
import { Card } from '@/components/ui/card';
import { border, inputLook } from '@/components/ui/field';

const labelLook = 'block text-xs font-medium text-slate-700';

export function TextInput({
  id,
  name,
  label,
  defaultValue,
  type = 'text',
  required = false,
  placeholder,
  className = 'min-w-40',
}: {
  id: string;
  name: string;
  label: string;
  defaultValue?: string | number;
  type?: 'text' | 'number';
  required?: boolean;
  placeholder?: string;
  className?: string;
}) {
  return (
    <div className={className}>
      <label htmlFor={id} className={labelLook}>
        {label}
      </label>
      <input
        id={id}
        name={name}
        type={type}
        defaultValue={defaultValue}
        required={required}
        placeholder={placeholder}
        autoComplete="off"
        className={`${inputLook} mt-1 bg-white ${border(false)}`}
      />
    </div>
  );
}

export function Select({
  id,
  name,
  label,
  options,
  defaultValue,
}: {
  id: string;
  name: string;
  label: string;
  options: { value: string; label: string }[];
  defaultValue?: string;
}) {
  return (
    <div className="min-w-40">
      <label htmlFor={id} className={labelLook}>
        {label}
      </label>
      <select id={id} name={name} defaultValue={defaultValue} className={`${inputLook} mt-1 bg-white ${border(false)}`}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

export function Check({ id, name, label, defaultChecked }: { id: string; name: string; label: ReactNode; defaultChecked?: boolean }) {
  return (
    <label htmlFor={id} className="flex items-center gap-2 py-2 text-sm text-slate-700">
      <input id={id} name={name} type="checkbox" defaultChecked={defaultChecked} className="size-4 accent-indigo-600" />
      {label}
    </label>
  );
}

/** A form behind a disclosure (Edit…, Add…), so the lists stay readable. */
export function Disclosure({ summary, children }: { summary: ReactNode; children: ReactNode }) {
  return (
    <details className="mt-2">
      <summary className="cursor-pointer text-sm font-medium text-accent-text">{summary}</summary>
      <div className="mt-2 rounded-lg border border-slate-200 bg-white p-3">{children}</div>
    </details>
  );
}

/** A control's words and, for screen readers, what it acts on. */
function Named({ label, name }: { label: ReactNode; name: string }) {
  return (
    <>
      {label}
      <span className="sr-only"> {name}</span>
    </>
  );
}

/** A disclosure whose summary names its row. */
export function NamedDisclosure({ label, name, children }: { label: string; name: string; children: ReactNode }) {
  return <Disclosure summary={<Named label={label} name={name} />}>{children}</Disclosure>;
}

/** The remove button of one item of a row's list (a permission, a holder, a member, a claim), named by what it removes. */
export function Remove({
  action,
  name,
  labels,
}: {
  action: ComponentProps<typeof RemoveButton>['action'];
  name: string;
  labels: { remove: string; saving: string };
}) {
  return <RemoveButton action={action} label={<Named label={labels.remove} name={name} />} pendingLabel={labels.saving} />;
}

/** A row's delete control: a disclosure holding the confirmation, both naming the row for screen readers. */
export function DeleteDisclosure({
  label,
  name,
  action,
  statement,
  pendingLabel,
}: {
  label: string;
  name: string;
  action: ComponentProps<typeof ConfirmForm>['action'];
  statement: ReactNode;
  pendingLabel: string;
}) {
  const named = <Named label={label} name={name} />;
  return (
    <Disclosure summary={named}>
      <ConfirmForm action={action} statement={statement} submit={named} pendingLabel={pendingLabel} />
    </Disclosure>
  );
}

/** A card holding one table, its caption the card's title; children come under the table (the form that adds a row). */
export function TableCard({
  title,
  description,
  columns,
  empty,
  rows,
  children,
}: {
  title: string;
  description?: string;
  columns: string[];
  empty: string;
  rows: ReactNode[];
  children?: ReactNode;
}) {
  return (
    <Card title={title} description={description}>
      <DataTable caption={title} columns={columns.map((label) => ({ label }))} empty={empty} rows={rows} />
      {children}
    </Card>
  );
}

/** Permissions to choose from, as `<API id> <permission>` (lib/surfaces/portal/authorization.ts chosenPermission). */
export function permissionOptions(apis: { id: string; name: string; permissions: { name: string }[] }[]) {
  return apis.flatMap((api) => api.permissions.map((p) => ({ value: `${api.id} ${p.name}`, label: `${p.name} (${api.name})` })));
}
