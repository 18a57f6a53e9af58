'use client';
/**
 * A new password typed twice, its rules as the hint and strength guidance as it is typed: the fields of the
 * forms that set one (`password` and `confirmPassword` by default; /account's are `newPassword` and
 * `confirmPassword`). Each with Show/Hide (components/ui/password-field.tsx). UI only.
 */
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import type { Problem } from '@/lib/platform/forms';
import { problemTexts } from '@/lib/i18n/problems';
import { PasswordField } from '../ui/password-field';
import { PasswordStrength } from './password-strength';

export function PasswordPair({
  label,
  againLabel,
  minLength,
  errors,
  autoFocus,
  name = 'password',
  problemFields = { password: 'password', confirmPassword: 'confirmPassword' },
  sentence = (message) => message,
}: {
  /** "New password": the second field is "<label> again" unless `againLabel` says otherwise. */
  label: string;
  againLabel?: string;
  minLength: number;
  errors: { password?: Problem[]; confirmPassword?: Problem[] };
  autoFocus?: boolean;
  /** The first field's name (the second is always `confirmPassword`). */
  name?: string;
  /** The catalog's wording for each field's problems (`problems.<field>`). */
  problemFields?: { password: string; confirmPassword: string };
  /** How a message is written out under its field (the account forms start each with a capital). */
  sentence?: (message: string) => string;
}) {
  const t = useTranslations('passwordPair');
  const problems = useTranslations('problems');
  const [typed, setTyped] = useState('');
  const words = (field: string, list?: Problem[]) => problemTexts(problems, field, list)?.map(sentence);
  return (
    <>
      <PasswordField
        compact
        id={name}
        label={label}
        hint={t('hint', { minimum: minLength })}
        autoComplete="new-password"
        required
        autoFocus={autoFocus}
        onChange={(e) => setTyped(e.currentTarget.value)}
        below={<PasswordStrength id={`${name}-strength`} password={typed} minLength={minLength} />}
        belowId={typed ? `${name}-strength` : undefined}
        errors={words(problemFields.password, errors.password)}
      />
      <PasswordField
        compact
        id="confirmPassword"
        label={againLabel ?? t('again', { label })}
        autoComplete="new-password"
        required
        errors={words(problemFields.confirmPassword, errors.confirmPassword)}
      />
    </>
  );
}
