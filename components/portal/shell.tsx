/**
 * The frame of the portal's two areas (admin, /account): skip link, header with the area's navigation and the signed-in person,
 * main content. In the page's language (`portal`, and each area's `nav`; the admin portal is English for now).
 */
import { Link } from '../ui/link';
import { useTranslations } from 'next-intl';
import type { ReactNode } from 'react';
import { brand } from '@/lib/config/brand';
import { BrandLockup } from '../ui/brand';
import { Button, focusRing, TextLink } from '../ui/button';
import { NavLinks, type NavSection } from './nav-links';

interface Area {
  home: string;
  /** After the brand's name in the header, and the navigation's name. */
  name: string;
  navLabel: string;
  sections: NavSection[];
  width: string;
  /** The link to the other area: shown before or after the person's name, and to admins only where `adminOnly`. */
  other: { href: string; label: string; first: boolean; adminOnly: boolean };
}

function useAreas(): Record<'admin' | 'account', Area> {
  const admin = useTranslations('admin.nav');
  const account = useTranslations('account');
  return {
    admin: {
      home: '/admin',
      name: admin('area'),
      navLabel: admin('label'),
      sections: [
        { href: '/admin/clients', label: admin('clients') },
        { href: '/admin/users', label: admin('users') },
        { href: '/admin/connections', label: admin('connections') },
        { href: '/admin/registration', label: admin('registration') },
        { href: '/admin/webhooks', label: admin('webhooks') },
        { href: '/admin/access', label: admin('access') },
        { href: '/admin/provisioning', label: admin('provisioning') },
        { href: '/admin/audit', label: admin('audit') },
        { href: '/admin/system', label: admin('system') },
      ],
      width: 'max-w-6xl',
      other: { href: '/account', label: admin('account'), first: false, adminOnly: false },
    },
    account: {
      home: '/account',
      name: account('area'),
      navLabel: account('nav.label'),
      sections: [
        { href: '/account', label: account('nav.profile'), exact: true },
        { href: '/account/password', label: account('nav.password') },
        { href: '/account/security', label: account('nav.security') },
        { href: '/account/apps', label: account('nav.apps') },
        { href: '/account/sessions', label: account('nav.sessions') },
        { href: '/account/data', label: account('nav.data') },
      ],
      width: 'max-w-5xl',
      other: { href: '/admin', label: account('nav.admin'), first: true, adminOnly: true },
    },
  };
}

export function PortalShell({
  area: which,
  person,
  signOut,
  children,
}: {
  area: 'admin' | 'account';
  /** Who is signed in; no one on the pages that answer before sign-in completes (the 403, a missing page). */
  person?: { username: string; name: string | null; role?: string };
  signOut: () => Promise<void>;
  children: ReactNode;
}) {
  const t = useTranslations('portal');
  const area = useAreas()[which];
  const other =
    person && (!area.other.adminOnly || (person.role !== undefined && person.role !== 'user')) ? (
      <TextLink href={area.other.href}>{area.other.label}</TextLink>
    ) : null;
  return (
    <div className="min-h-screen">
      <a
        href="#main"
        className={`sr-only rounded-md bg-white px-3 py-2 text-sm font-semibold focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-10 focus:shadow-md ${focusRing}`}
      >
        {t('skip')}
      </a>
      <header className="border-b border-slate-200 bg-white">
        <div className={`mx-auto flex ${area.width} flex-wrap items-center justify-between gap-x-6 gap-y-2 px-4 py-3 sm:px-6`}>
          <div className="flex flex-wrap items-center gap-x-6 gap-y-2">
            <Link href={area.home} className={`flex items-center gap-2 rounded-sm ${focusRing}`}>
              <BrandLockup brand={brand()} size="header" />
              <span className="text-sm font-medium text-slate-500">{area.name}</span>
            </Link>
            <nav aria-label={area.navLabel}>
              <NavLinks sections={area.sections} />
            </nav>
          </div>
          {person ? (
            <div className="flex flex-wrap items-center gap-3 text-sm">
              {area.other.first ? other : null}
              <span className="text-slate-600">
                {t.rich('signedInAs', {
                  name: person.name ?? person.username,
                  strong: (chunks) => <strong className="font-semibold text-slate-900">{chunks}</strong>,
                })}
              </span>
              {area.other.first ? null : other}
              <form action={signOut}>
                <Button type="submit" variant="secondary">
                  {t('signOut')}
                </Button>
              </form>
            </div>
          ) : null}
        </div>
      </header>
      <main id="main" tabIndex={-1} className={`mx-auto ${area.width} px-4 py-8 outline-none sm:px-6`}>
        {children}
      </main>
    </div>
  );
}
