/**
 * The relying party as the sign-in and consent pages show it, inside the operator's card: its
 * logo (logo_uri, https only, 48 px, with alt text; its initial when there is none or it fails to load:
 * client-logo.tsx), the line
 * that names it, and the domain the person returns to. UI only: the service decides what is shown.
 */
import { getTranslations } from 'next-intl/server';
import type { ReactNode } from 'react';
import { ClientLogo } from './client-logo';

export async function AppIdentity({ client, children }: { client: { name: string; logoUri?: string; domain?: string }; children: ReactNode }) {
  const t = await getTranslations('interaction.app');
  return (
    <div className="flex items-center gap-3">
      <ClientLogo name={client.name} logoUri={client.logoUri} alt={t('logoAlt', { client: client.name })} />
      <div className="min-w-0">
        <div>{children}</div>
        {client.domain ? (
          <p className="mt-0.5 text-xs text-slate-600">
            {/* Only the domain may break anywhere (a long host has no word boundaries); the sentence breaks between words. */}
            {t.rich('returnsTo', { domain: client.domain, strong: (chunks) => <strong className="font-medium wrap-anywhere text-slate-800">{chunks}</strong> })}
          </p>
        ) : null}
      </div>
    </div>
  );
}
