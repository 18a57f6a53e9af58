/** The admin area's frame: skip link, header with navigation and the signed-in admin, main content. */
import Link from 'next/link';
import type { ReactNode } from 'react';
import { NavLinks } from './nav-links';
import { Button, focusRing } from './ui';

export function AdminShell({ admin, signOut, children }: { admin?: { username: string; name: string | null }; signOut: () => Promise<void>; children: ReactNode }) {
  return (
    <div className="min-h-screen">
      <a href="#main" className={`sr-only rounded-md bg-white px-3 py-2 text-sm font-semibold focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-10 focus:shadow-md ${focusRing}`}>
        Skip to content
      </a>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-x-6 gap-y-2 px-4 py-3 sm:px-6">
          <div className="flex flex-wrap items-center gap-x-6 gap-y-2">
            <Link href="/admin" className={`rounded-sm text-sm font-bold tracking-widest text-indigo-600 uppercase ${focusRing}`}>
              Gatehouse <span className="font-medium text-slate-500 normal-case tracking-normal">admin</span>
            </Link>
            <nav aria-label="Admin">
              <NavLinks />
            </nav>
          </div>
          {admin ? (
            <div className="flex items-center gap-3 text-sm">
              <span className="text-slate-600">
                Signed in as <strong className="font-semibold text-slate-900">{admin.name ?? admin.username}</strong>
              </span>
              <Link href="/account" className={`rounded-sm font-medium text-indigo-700 underline-offset-2 hover:underline ${focusRing}`}>
                Your account
              </Link>
              <form action={signOut}>
                <Button type="submit" look="secondary">
                  Sign out
                </Button>
              </form>
            </div>
          ) : null}
        </div>
      </header>
      <main id="main" tabIndex={-1} className="mx-auto max-w-6xl px-4 py-8 outline-none sm:px-6">
        {children}
      </main>
    </div>
  );
}
