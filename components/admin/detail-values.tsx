/** Values on the admin portal's detail pages (a client's, a connection's): lists and technical strings, or "none". UI only. */

/** One item per line in monospace, or `empty` when there is none. */
export function ValueList({ items, empty }: { items: string[]; empty: string }) {
  if (!items.length) return <span className="text-slate-600">{empty}</span>;
  return (
    <ul className="space-y-1 font-mono text-xs">
      {items.map((item) => (
        <li key={item}>{item}</li>
      ))}
    </ul>
  );
}

/** A URL or identifier in monospace (broken anywhere, as URLs are long), or `none`. */
export const monoValue = (value: string | null, none: string) =>
  value ? <span className="font-mono text-xs break-all">{value}</span> : <span className="text-slate-600">{none}</span>;
