'use client';
// Shown once, right after Gatehouse generated a user's password: it is in this answer and nowhere else.
import { useTranslations } from 'next-intl';
import { CopyField } from '../ui/copy-field';
import { Notice } from '../ui/notice';

export function PasswordReveal({ heading, username, password }: { heading: string; username: string; password: string }) {
  const t = useTranslations('admin.userForm');
  return (
    <div>
      <Notice variant="warning">
        <p className="font-semibold">{heading}</p>
        <p className="mt-1">{t('copyPassword', { username })}</p>
      </Notice>
      <CopyField id="generated-password" label={t('generatedPassword')} value={password} secret />
    </div>
  );
}
