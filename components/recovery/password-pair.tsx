'use client';
/** A new password typed twice, its rules as the hint: the fields `password` and `confirmPassword` of the forms that set one. UI only. */
import { useTranslations } from 'next-intl';
import type { Problem } from '@/lib/platform/forms';
import { problemTexts } from '@/lib/i18n/problems';
import { TextField } from '../ui/field';

export function PasswordPair({
  label,
  minLength,
  errors,
  autoFocus,
  confirmField = 'confirmPassword',
}: {
  /** "New password": the second field is "<label> again". */
  label: string;
  minLength: number;
  errors: { password?: Problem[]; confirmPassword?: Problem[] };
  autoFocus?: boolean;
  /** The catalog's wording for the second field's problems (`problems.<confirmField>`). */
  confirmField?: string;
}) {
  const t = useTranslations('passwordPair');
  const problems = useTranslations('problems');
  return (
    <>
      <TextField
        compact
        id="password"
        label={label}
        hint={t('hint', { minimum: minLength })}
        type="password"
        autoComplete="new-password"
        required
        autoFocus={autoFocus}
        errors={problemTexts(problems, 'password', errors.password)}
      />
      <TextField
        compact
        id="confirmPassword"
        label={t('again', { label })}
        type="password"
        autoComplete="new-password"
        required
        errors={problemTexts(problems, confirmField, errors.confirmPassword)}
      />
    </>
  );
}
