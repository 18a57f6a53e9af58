// The landing page: what this server is and where clients find it.
import { BrandLockup } from '@/components/ui/brand';
import { brand } from '@/lib/config/brand';
import { env } from '@/lib/config/env';

export const dynamic = 'force-dynamic';

export default function Home() {
  const issuer = env().ISSUER;
  const discovery = `${issuer}/.well-known/openid-configuration`;
  return (
    <main className="mx-auto max-w-2xl px-6 py-16">
      <p>
        <BrandLockup brand={brand()} />
      </p>
      <h1 className="mt-6 text-3xl font-semibold text-slate-900">OpenID Connect identity provider</h1>
      <p className="mt-4 text-slate-600">
        Applications sign people in here with OpenID Connect (authorization code with PKCE). Point your client library at the discovery document below; register
        clients with <code className="rounded bg-slate-100 px-1">npm run gatehouse -- client create</code>.
      </p>
      <dl className="mt-8 space-y-4 rounded-xl border border-slate-200 bg-white p-6 text-sm">
        <div>
          <dt className="font-medium text-slate-500">Issuer</dt>
          <dd className="mt-1 font-mono break-all">{issuer}</dd>
        </div>
        <div>
          <dt className="font-medium text-slate-500">Discovery</dt>
          <dd className="mt-1 font-mono break-all">
            <a className="text-accent-text underline hover:no-underline" href={discovery}>
              {discovery}
            </a>
          </dd>
        </div>
      </dl>
    </main>
  );
}
