'use client';
// An area's navigation in the portal shell; marks the current section with aria-current
// (rendered on the server too, so it works without JavaScript).
import { Link } from '../ui/link';
import { usePathname } from 'next/navigation';
import { focusRing } from '../ui/button';

/** `exact`: current only on that very path (an area's front page), not on the pages under it. */
export interface NavSection {
  href: string;
  label: string;
  exact?: boolean;
}

export function NavLinks({ sections }: { sections: NavSection[] }) {
  const pathname = usePathname();
  return (
    <ul className="flex flex-wrap gap-1">
      {sections.map(({ href, label, exact }) => {
        const current = pathname === href || (!exact && pathname.startsWith(`${href}/`));
        return (
          <li key={href}>
            <Link
              href={href}
              aria-current={current ? 'page' : undefined}
              className={`block rounded-md px-3 py-2 text-sm font-medium ${focusRing} ${
                current ? 'bg-accent-soft text-accent-text' : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900'
              }`}
            >
              {label}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
