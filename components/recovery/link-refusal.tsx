'use client';
/**
 * What a mailed link's one-button form says when its button was refused: the link no longer works (and why, in the
 * form's own words), or the address must wait. Shared by the verification and unlock links' forms. UI only.
 */
import { useTranslations } from 'next-intl';
import { problemText } from '@/lib/i18n/problems';
import { Notice } from '../ui/notice';

export type LinkRefusalState =
  | { status: 'link'; problem: 'expired' | 'used' | 'unknown' }
  | { status: 'throttled'; retryAfterSeconds: number }
  | { status: string };

export function LinkRefusal({ state, stale, words }: { state: LinkRefusalState; stale: string; words: Record<'expired' | 'used' | 'unknown', string> }) {
  const problems = useTranslations('problems');
  if (state.status === 'link' && 'problem' in state) {
    return (
      <Notice variant="error" compact>
        {stale} {words[state.problem]}
      </Notice>
    );
  }
  if (state.status === 'throttled' && 'retryAfterSeconds' in state) {
    return (
      <Notice variant="error" compact>
        {problemText(problems, 'form', { code: 'throttled', values: { seconds: state.retryAfterSeconds } })}
      </Notice>
    );
  }
  return null;
}
