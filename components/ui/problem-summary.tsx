'use client';
// The error summary at the top of a long form, for the one UI kit (a client component: it takes the focus).
// Its words are the catalogs' `ui` (a page that uses it passes that namespace to ClientMessages).
import { useTranslations } from 'next-intl';
import { useEffect, useRef } from 'react';

/**
 * "N fields need attention" with a link to each field, focused after each answer that has problems
 * (works without JavaScript: then it is simply there). `anchors` maps a field to its element id where they differ.
 */
export function ProblemSummary<Field extends string>({
  errors,
  names,
  anchors = {},
}: {
  errors: Partial<Record<Field, string[]>>;
  names: Record<Field, string>;
  anchors?: Partial<Record<Field, string>>;
}) {
  const t = useTranslations('ui');
  const summary = useRef<HTMLDivElement>(null);
  const problems = Object.entries(errors) as Array<[Field, string[]]>;
  useEffect(() => {
    if (problems.length) summary.current?.focus();
  }, [errors]); // focus the summary after each answer, not on every render
  if (!problems.length) return null;
  return (
    <div
      ref={summary}
      tabIndex={-1}
      role="alert"
      aria-labelledby="form-problems"
      className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800 outline-none"
    >
      <p id="form-problems" className="font-semibold">
        {t('problemSummary', { count: problems.length })}
      </p>
      <ul className="mt-1 list-inside list-disc">
        {problems.map(([field, messages]) => (
          <li key={field}>
            {field === 'form' ? (
              messages.join(' ')
            ) : (
              <a href={`#${anchors[field] ?? field}`} className="underline">
                {names[field]}: {messages[0]}
              </a>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
