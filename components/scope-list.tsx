/** What each scope means to the person consenting, in plain words, in the page's language (scopes in the catalogs). */
import { getTranslations } from 'next-intl/server';

const described = new Set(['openid', 'profile', 'email', 'offline_access', 'introspect'] as const);
type Described = typeof described extends Set<infer T> ? T : never;
const isDescribed = (scope: string): scope is Described => (described as Set<string>).has(scope);

/** `product`: the brand's name. A scope the catalogs do not describe is shown by its name. */
export async function ScopeList({ scopes, claims, product }: { scopes: string[]; claims: string[]; product: string }) {
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
      {claims.length ? <li className="text-slate-600">{t('alsoClaims', { claims: claims.join(', ') })}</li> : null}
    </ul>
  );
}
