'use client';
// Copies a value to the clipboard. Rendered only once JavaScript runs: without it the value stays selectable in its field.
// Its words are the catalogs' `ui` (a page that uses it passes that namespace to ClientMessages).
import { useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';
import { focusRing } from './button';
import { Field } from './field';

export function CopyButton({ value, label, targetId }: { value: string; label: string; targetId: string }) {
  const t = useTranslations('ui');
  const [ready, setReady] = useState(false);
  const [copied, setCopied] = useState(false);
  useEffect(() => setReady(true), []);
  if (!ready) return null;

  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      // No clipboard API (a non-secure context): select the field and let the browser copy it.
      const field = document.getElementById(targetId) as HTMLInputElement | null;
      field?.select();
      document.execCommand('copy');
    }
    setCopied(true);
    setTimeout(() => setCopied(false), 2500);
  }

  return (
    <button
      type="button"
      onClick={copy}
      // The name follows the visible word (WCAG 2.5.3): "Copy Key", then "Key copied" while it says Copied.
      aria-label={copied ? t('copiedLabel', { label }) : t('copyLabel', { label })}
      className={`shrink-0 rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm font-semibold text-slate-700 hover:bg-slate-50 ${focusRing}`}
    >
      <span aria-live="polite">{copied ? t('copied') : t('copy')}</span>
    </button>
  );
}

/** A read-only value with its copy button; a secret's field is amber, its border amber-700 for 3:1 on the card (1.4.11; amber-300 was 1.5:1). */
export function CopyField({ id, label, value, secret = false }: { id: string; label: string; value: string; secret?: boolean }) {
  return (
    <Field id={id} label={label} compact>
      <div className="flex gap-2">
        <input
          id={id}
          readOnly
          value={value}
          spellCheck={false}
          autoComplete="off"
          data-secret={secret || undefined}
          onFocus={(e) => e.currentTarget.select()}
          className={`block w-full min-w-0 rounded-lg border px-3 py-2 font-mono text-sm ${secret ? 'border-amber-700 bg-amber-50' : 'border-control bg-slate-50'} ${focusRing}`}
        />
        <CopyButton value={value} label={label} targetId={id} />
      </div>
    </Field>
  );
}
