'use client';
/**
 * A password input in its Field, with "Show"/"Hide" once JavaScript runs (without it, a plain password
 * field: nothing on the page depends on the button). The button names the field it acts on
 * (aria-controls) and says which way it acts, so its state is read out by its name. Its words are the
 * catalogs' `ui` (a page that uses it passes that namespace to ClientMessages). UI only.
 */
import { useTranslations } from 'next-intl';
import { type InputHTMLAttributes, type ReactNode, useEffect, useState } from 'react';
import { focusRing } from './button';
import { border, describedBy, Field, inputLook } from './field';

export function PasswordField({
  id,
  label,
  hint,
  errors,
  compact,
  below,
  belowId,
  ...input
}: {
  id: string;
  label: string;
  hint?: string;
  errors?: string[];
  compact?: boolean;
  /** Shown under the input, before the errors (the strength guidance), with the id that describes the input. */
  below?: ReactNode;
  belowId?: string;
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'type'>) {
  const t = useTranslations('ui');
  const [scripted, setScripted] = useState(false);
  const [shown, setShown] = useState(false);
  useEffect(() => setScripted(true), []);
  // A refusal shown elsewhere (the sign-in form's, above it) marks the field as its own errors do.
  const { className: _look, 'aria-invalid': markedInvalid, 'aria-describedby': describedElsewhere, ...rest } = input;
  const invalid = Boolean(errors?.length) || markedInvalid === true;
  return (
    <Field id={id} label={label} hint={hint} errors={errors} compact={compact}>
      <div className="relative">
        <input
          id={id}
          name={id}
          type={shown ? 'text' : 'password'}
          aria-invalid={invalid || undefined}
          aria-describedby={[describedBy(id, Boolean(hint), errors), describedElsewhere, belowId].filter(Boolean).join(' ') || undefined}
          // No spelling or capital letters forced while it is shown as text.
          autoCapitalize="none"
          spellCheck={false}
          className={`${inputLook} ${border(invalid)} ${scripted ? 'pr-24' : ''}`}
          {...rest}
        />
        {scripted ? (
          <button
            type="button"
            aria-controls={id}
            onClick={() => setShown((v) => !v)}
            className={`absolute inset-y-1 right-1 rounded-md px-2.5 text-sm font-semibold text-accent-text hover:bg-accent-soft ${focusRing}`}
          >
            {/* Short on screen; its name says what it shows (the visible word is part of it: WCAG 2.5.3). */}
            <span aria-hidden="true">{shown ? t('hide') : t('show')}</span>
            <span className="sr-only">{shown ? t('hidePassword') : t('showPassword')}</span>
          </button>
        ) : null}
      </div>
      {below}
    </Field>
  );
}
