/**
 * The words for a use case's Problem (lib/platform/forms.ts) in the page's language: the catalogs'
 * `problems.<field>.<code>` when the form words it for that field, else `problems.<code>`. Pure, for
 * server and client components alike (their `t` for the `problems` namespace: getTranslations or
 * useTranslations).
 */
import type { Problem } from '../platform/forms.ts';

/** The part of next-intl's translator this needs, loosely typed: the keys are built from codes. */
export interface ProblemTranslator {
  (key: never, values?: never): string;
  has(key: never): boolean;
}

type Loose = { (key: string, values?: Record<string, string | number>): string; has(key: string): boolean };

/** A wait in the units a person reads: seconds under a minute, minutes under two hours, then hours. */
export function throttledKey(seconds: number): { key: 'throttled.seconds' | 'throttled.minutes' | 'throttled.hours'; count: number } {
  if (seconds < 60) return { key: 'throttled.seconds', count: Math.max(1, Math.ceil(seconds)) };
  const minutes = Math.ceil(seconds / 60);
  return minutes < 120 ? { key: 'throttled.minutes', count: minutes } : { key: 'throttled.hours', count: Math.ceil(minutes / 60) };
}

/** One problem's message; `field`: the form's own name for the field (its catalog entry under `problems`). */
export function problemText(translate: ProblemTranslator, field: string, problem: Problem): string {
  const t = translate as unknown as Loose;
  if (problem.code === 'throttled') {
    const { key, count } = throttledKey(Number(problem.values?.seconds) || 60);
    return t(key, { count });
  }
  const specific = `${field}.${problem.code}`;
  const key = t.has(specific) ? specific : t.has(problem.code) ? problem.code : 'invalid';
  return t(key, problem.values);
}

/** The messages of a field's problems, or undefined when it has none (what the kit's fields take). */
export function problemTexts(t: ProblemTranslator, field: string, problems: Problem[] | undefined): string[] | undefined {
  return problems?.length ? problems.map((problem) => problemText(t, field, problem)) : undefined;
}

/** Every field's problems as their messages (what a form's fields and its ProblemSummary take), each worded for its field. */
export function fieldProblemTexts<F extends string>(t: ProblemTranslator, problems: Partial<Record<F, Problem[]>>): Partial<Record<F, string[]>> {
  const texts: Partial<Record<F, string[]>> = {};
  for (const [field, list] of Object.entries(problems) as Array<[F, Problem[] | undefined]>) {
    const words = problemTexts(t, field, list);
    if (words) texts[field] = words;
  }
  return texts;
}
