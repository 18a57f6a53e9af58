// A person's admin role on their page: the roles the admin looking may give (lib/surfaces/portal/users.ts assignableRoles),
// one select and a button. The server action checks again (requireAdmin and setRole); this only leaves out what would be refused.
import { Button } from '@/components/ui/button';
import { focusRing } from '@/components/ui/button';

export function RoleForm({
  action,
  current,
  roles,
  label,
  submit,
}: {
  action: (form: FormData) => Promise<void>;
  current: string;
  roles: { value: string; label: string }[];
  label: string;
  submit: string;
}) {
  return (
    <form action={action} className="flex flex-wrap items-end gap-3">
      <label className="grid gap-1 text-sm font-medium text-slate-700">
        {label}
        <select
          name="role"
          defaultValue={current}
          className={`rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 ${focusRing}`}
        >
          {roles.map((role) => (
            <option key={role.value} value={role.value}>
              {role.label}
            </option>
          ))}
        </select>
      </label>
      <Button type="submit" variant="secondary">
        {submit}
      </Button>
    </form>
  );
}
