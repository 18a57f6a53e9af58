// The small labelled controls of /admin/access's forms: ids from what the form is about, so each label names its control.
import type { ReactNode } from 'react';
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

/** Permissions to choose from, as `<API id> <permission>` (lib/surfaces/portal/authorization.ts chosenPermission). */
export function permissionOptions(apis: { id: string; name: string; permissions: { name: string }[] }[]) {
  return apis.flatMap((api) => api.permissions.map((p) => ({ value: `${api.id} ${p.name}`, label: `${p.name} (${api.name})` })));
}
