'use client';
// Shown once, right after a client is created or its secret rotated: the secret is in this answer and nowhere else.
import { useTranslations } from 'next-intl';
import { CopyField } from '../ui/copy-field';
import { Notice } from '../ui/notice';

export function SecretReveal({ clientId, clientSecret, heading }: { clientId?: string; clientSecret: string; heading: string }) {
  const t = useTranslations('admin.clientActions');
  return (
    <div>
      <Notice variant="warning">
        <p className="font-semibold">{heading}</p>
        <p className="mt-1">{t('copySecret')}</p>
      </Notice>
      <div className="space-y-4">
        {clientId ? <CopyField id="client-id" label={t('clientId')} value={clientId} /> : null}
        <CopyField id="client-secret" label={t('clientSecret')} value={clientSecret} secret />
      </div>
    </div>
  );
}
