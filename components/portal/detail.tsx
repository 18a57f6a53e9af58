/** The admin detail pages' building blocks (a client, a user): header with badges and actions, two columns, facts, lists. UI only. */
import type { ReactNode } from 'react';
import { Card, PageHeader } from '../ui/card';

/** The page's title, a link back to its list, its badges and its actions. */
export function DetailHeader({
  title,
  back,
  badges,
  actions,
}: {
  title: string;
  back: { href: string; label: string };
  badges: ReactNode;
  actions?: ReactNode;
}) {
  return <PageHeader title={title} back={back} description={<span className="flex flex-wrap gap-1">{badges}</span>} actions={actions} />;
}

/** The wide column (what it is) beside the narrow one (what to do with it); one column on small screens. */
export function DetailColumns({ main, side }: { main: ReactNode; side: ReactNode }) {
  return (
    <div className="grid gap-6 lg:grid-cols-5">
      <div className="space-y-6 lg:col-span-3">{main}</div>
      <div className="space-y-6 lg:col-span-2">{side}</div>
    </div>
  );
}

/** Label–value rows, in the order given. */
export function Facts({ rows }: { rows: Record<string, ReactNode> }) {
  return (
    <dl className="divide-y divide-slate-100">
      {Object.entries(rows).map(([label, value]) => (
        <div key={label} className="grid gap-1 py-3 sm:grid-cols-3 sm:gap-4">
          <dt className="text-sm font-medium text-slate-500">{label}</dt>
          <dd className="text-sm break-words text-slate-900 sm:col-span-2">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The items, one per row, or `empty` when there are none. */
export function ItemList<T>({ items, empty, className = '', children }: { items: T[]; empty: string; className?: string; children: (item: T) => ReactNode }) {
  if (items.length === 0) return <p className="text-sm text-slate-600">{empty}</p>;
  return <ul className={`${className} divide-y divide-slate-100`}>{items.map(children)}</ul>;
}

/** A page that is one form in a card (create, edit): its header with the way back, the form at a readable width. */
export function FormPage({
  title,
  back,
  description,
  wide = false,
  children,
}: {
  title: string;
  back: { href: string; label: string };
  description?: string;
  wide?: boolean;
  children: ReactNode;
}) {
  return (
    <>
      <PageHeader title={title} back={back} description={description} />
      <div className={wide ? 'max-w-3xl' : 'max-w-2xl'}>
        <Card>{children}</Card>
      </div>
    </>
  );
}

/** A detail page's :id and its own path (where sign-in comes back to, and what its edit page is under). */
export async function detailRoute(list: string, params: Promise<{ id: string }>): Promise<{ id: string; path: string }> {
  const { id } = await params;
  return { id, path: `${list}/${encodeURIComponent(id)}` };
}
