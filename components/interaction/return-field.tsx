'use client';
/** The page's own path and query as a hidden field: where the language switcher's post sends the browser back to. UI only. */
import { usePathname, useSearchParams } from 'next/navigation';

export function ReturnField() {
  const path = usePathname();
  const query = useSearchParams().toString();
  return <input type="hidden" name="return" value={query ? `${path}?${query}` : path} />;
}
