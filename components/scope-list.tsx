/** What each scope means to the person consenting, in plain words. */
const descriptions = (product: string): Record<string, string> => ({
  openid: `Know who you are (your ${product} user id)`,
  profile: 'See your name and username',
  email: 'See your email address',
  offline_access: 'Stay connected when you are not using it',
  introspect: 'Check whether access tokens are valid',
});

/** `product`: the brand's name. */
export function ScopeList({ scopes, claims, product }: { scopes: string[]; claims: string[]; product: string }) {
  const said = descriptions(product);
  return (
    <ul className="space-y-2 text-sm text-slate-700">
      {scopes.map((scope) => (
        <li key={scope} className="flex gap-2">
          <span aria-hidden className="text-accent-text">
            ✓
          </span>
          <span>
            {said[scope] ?? scope} <span className="text-slate-500">({scope})</span>
          </span>
        </li>
      ))}
      {claims.length ? <li className="text-slate-600">Also: {claims.join(', ')}</li> : null}
    </ul>
  );
}
