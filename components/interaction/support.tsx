/**
 * The foot of a page that ends somewhere unexpected: the request id for support (the answer's
 * X-Request-Id, lib/platform/request-context.ts), and the technical code only as a detail. UI only.
 */
import { getTranslations } from 'next-intl/server';
import type { Locale } from '@/lib/i18n/locale';

/** `locale`: when the page is in another language than the layout's (app/forbidden.tsx, app/not-found.tsx). */
export async function SupportDetails({ requestId, code, locale }: { requestId?: string | null; code?: string; locale?: Locale }) {
  const t = locale ? await getTranslations({ locale, namespace: 'support' }) : await getTranslations('support');
  if (!requestId && !code) return null;
  return (
    <div className="mt-6 space-y-1 border-t border-slate-200 pt-4 text-xs text-slate-600">
      {requestId ? (
        <p>
          {t('requestId')} <code className="mt-0.5 block w-fit rounded bg-slate-100 px-1 py-0.5 break-all text-slate-800">{requestId}</code>
        </p>
      ) : null}
      {code ? (
        <details>
          <summary className="cursor-pointer rounded-sm">{t('details')}</summary>
          <p className="mt-1">{t('code', { code })}</p>
        </details>
      ) : null}
    </div>
  );
}
