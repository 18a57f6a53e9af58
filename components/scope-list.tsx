/** What each scope means to the person consenting, in plain words, in the page's language (scopes in the catalogs). */
import { getTranslations } from 'next-intl/server';
import type { AskedPermission } from '@/lib/authorization/consent';

const described = new Set(['openid', 'profile', 'email', 'offline_access', 'introspect', 'groups', 'roles'] as const);
type Described = typeof described extends Set<infer T> ? T : never;
const isDescribed = (scope: string): scope is Described => (described as Set<string>).has(scope);

/** `product`: the brand's name. A scope the catalogs do not describe is shown by its name. */
export async function ScopeList({
  scopes,
  claims,
  product,
  permissions = [],
}: {
  scopes: string[];
  claims: string[];
  product: string;
  /** An API's permissions (resource indicators), in the words of the admin who registered it. */
  permissions?: AskedPermission[];
}) {
  const t = await getTranslations('scopes');
  return (
    <ul className="space-y-2 text-sm text-slate-700">
      {scopes.map((scope) => (
        <li key={scope} className="flex gap-2">
          <span aria-hidden className="text-accent-text">
            ✓
          </span>
          <span>
            {isDescribed(scope) ? t(scope, { product }) : scope} <span className="text-slate-500">({scope})</span>
          </span>
        </li>
      ))}
      {permissions.map((p) => (
        <li key={`${p.api} ${p.permission}`} className="flex gap-2">
          <span aria-hidden className="text-accent-text">
            ✓
          </span>
          <span>
            {p.description || p.permission}{' '}
            <span className="text-slate-500">
              ({p.api}: {p.permission})
            </span>
          </span>
        </li>
      ))}
      {claims.length ? <li className="text-slate-600">{t('alsoClaims', { claims: claims.join(', ') })}</li> : null}
    </ul>
  );
}
