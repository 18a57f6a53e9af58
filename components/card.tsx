import type { ReactNode } from 'react';

/** The centred card every sign-in page is built on. */
export function AuthCard({ title, subtitle, children }: { title: string; subtitle?: ReactNode; children: ReactNode }) {
  return (
    <main className="flex min-h-screen items-center justify-center px-4 py-10">
      <section aria-labelledby="card-title" className="w-full max-w-sm rounded-xl border border-slate-200 bg-white p-8 shadow-sm">
        <p className="mb-4 text-xs font-bold uppercase tracking-widest text-indigo-600">Gatehouse</p>
        <h1 id="card-title" className="text-xl font-semibold">
          {title}
        </h1>
        {subtitle ? <div className="mt-2 text-sm text-slate-600">{subtitle}</div> : null}
        <div className="mt-6">{children}</div>
      </section>
    </main>
  );
}
