/**
 * The relying party as the sign-in and consent pages show it, inside the operator's card: its
 * logo (logo_uri, https only, 48 px, with alt text; its initial when there is none), the line
 * that names it, and the domain the person returns to. UI only: the service decides what is shown.
 */
import { getTranslations } from 'next-intl/server';
import type { ReactNode } from 'react';

export async function AppIdentity({ client, children }: { client: { name: string; logoUri?: string; domain?: string }; children: ReactNode }) {
  const t = await getTranslations('interaction.app');
  const initial = [...client.name.trim()][0]?.toUpperCase() ?? '?';
  return (
    <div className="flex items-center gap-3">
      {client.logoUri ? (
        // biome-ignore lint/performance/noImgElement: the relying party's logo from its registration; next/image would fetch it server-side
        <img
          src={client.logoUri}
          alt={t('logoAlt', { client: client.name })}
          width={48}
          height={48}
          referrerPolicy="no-referrer"
          className="size-12 shrink-0 rounded-lg border border-slate-200 bg-white object-contain"
        />
      ) : (
        <span aria-hidden="true" className="flex size-12 shrink-0 items-center justify-center rounded-lg bg-slate-100 text-xl font-semibold text-slate-700">
          {initial}
        </span>
      )}
      <div className="min-w-0">
        <div>{children}</div>
        {client.domain ? (
          <p className="mt-0.5 text-xs break-all text-slate-600">
            {t.rich('returnsTo', { domain: client.domain, strong: (chunks) => <strong className="font-medium text-slate-800">{chunks}</strong> })}
          </p>
        ) : null}
      </div>
    </div>
  );
}
