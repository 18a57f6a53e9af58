/**
 * "Connect your app": the discovery URL and client id in full (they wrap, never cut off), then one snippet per
 * library, each in a disclosure (works without JavaScript) with a copy button once JavaScript runs. The snippets
 * (lib/surfaces/portal/quickstart.ts) read the secret from the environment: none is ever shown here. UI only;
 * its words are the catalogs' admin.quickstart.
 */
import { useTranslations } from 'next-intl';
import type { ClientPreset } from '@/lib/surfaces/portal/client-presets';
import { discoveryUrl, quickstartSnippets, SECRET_VARIABLE, type SnippetLibrary } from '@/lib/surfaces/portal/quickstart';
import { focusRing } from '../ui/button';
import { CopyButton } from '../ui/copy-field';

const libraryNames: Record<SnippetLibrary, string> = {
  'openid-client': 'openid-client (Node.js)',
  authjs: 'Auth.js / next-auth',
  spring: 'Spring Security',
  authlib: 'Python Authlib',
  'go-oidc': 'Go coreos/go-oidc',
};

/** A value shown whole: it wraps anywhere rather than being cut off by a field's width. */
function CopyValue({ id, label, value }: { id: string; label: string; value: string }) {
  return (
    <div role="group" aria-labelledby={`${id}-label`}>
      <p id={`${id}-label`} className="text-sm font-medium text-slate-800">
        {label}
      </p>
      <div className="mt-1 flex items-start gap-2">
        <code id={id} className="block min-w-0 flex-1 rounded-lg border border-control bg-slate-50 px-3 py-2 font-mono text-sm break-all">
          {value}
        </code>
        <CopyButton value={value} label={label} targetId={id} />
      </div>
    </div>
  );
}

export function Quickstart({ kind, issuer, clientId, redirectUri }: { kind: ClientPreset; issuer: string; clientId: string; redirectUri?: string }) {
  const t = useTranslations('admin.quickstart');
  const snippets = quickstartSnippets(kind, { issuer, clientId, redirectUri });
  const confidential = kind === 'web' || kind === 'machine' || kind === 'api';
  return (
    <section aria-labelledby="quickstart-heading" className="space-y-4">
      <h2 id="quickstart-heading" className="text-base font-semibold text-slate-900">
        {t('title')}
      </h2>
      <p className="text-sm text-slate-600">{t(`intro.${kind}`)}</p>
      <CopyValue id="quickstart-discovery" label={t('discovery')} value={discoveryUrl(issuer)} />
      <CopyValue id="quickstart-client-id" label={t('clientId')} value={clientId} />
      {redirectUri ? <CopyValue id="quickstart-redirect" label={t('redirectUri')} value={redirectUri} /> : null}
      <p className="text-sm text-slate-600">
        {confidential ? t.rich('secretNote', { variable: SECRET_VARIABLE, code: (chunks) => <code className="font-mono">{chunks}</code> }) : t('publicNote')}
      </p>
      <div className="space-y-2">
        {snippets.map((snippet, index) => (
          <details key={snippet.library} open={index === 0} className="rounded-lg border border-slate-200 bg-white">
            <summary className={`cursor-pointer rounded-lg px-3 py-2 text-sm font-medium text-slate-900 ${focusRing}`}>
              {libraryNames[snippet.library]} <span className="font-mono text-xs text-slate-500">{snippet.file}</span>
            </summary>
            <div className="space-y-2 border-t border-slate-200 p-3">
              <pre
                id={`snippet-${snippet.library}`}
                className="rounded-md bg-slate-900 p-3 font-mono text-xs leading-relaxed whitespace-pre-wrap wrap-anywhere text-slate-100"
              >
                {snippet.code}
              </pre>
              <CopyButton value={snippet.code} label={t('snippet', { library: libraryNames[snippet.library] })} targetId={`snippet-${snippet.library}`} />
            </div>
          </details>
        ))}
      </div>
    </section>
  );
}
