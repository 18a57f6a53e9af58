import { Button, focusRing } from './ui';

/** The search box above an admin list: a plain GET form, so it works without JavaScript. */
export function SearchForm({ action, id, label, placeholder, query }: { action: string; id: string; label: string; placeholder: string; query: string }) {
  return (
    <form role="search" method="get" action={action} className="mb-4 flex max-w-lg gap-2">
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <input
        id={id}
        type="search"
        name="q"
        defaultValue={query}
        maxLength={100}
        placeholder={placeholder}
        className={`block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm shadow-xs focus:border-indigo-500 ${focusRing}`}
      />
      <Button type="submit" look="secondary">
        Search
      </Button>
    </form>
  );
}
