'use client';
/**
 * Strength guidance under a new password, as it is typed: zxcvbn-ts's estimate (its score 0-4, and its
 * warning in the page's language from its language pack), and the two things the server refuses (too
 * short; one of the common passwords of lib/users/password-policy.ts, the same list). Guidance only: the
 * server decides. The estimator and its dictionaries (~1 MB) load when the person first types, not with the
 * page; without JavaScript there is no guidance and the hint under the label says the minimum. UI only.
 */
import { useLocale, useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';

type Estimate = { score: 0 | 1 | 2 | 3 | 4; warning: string | null; common: boolean };
type Estimator = (password: string) => Estimate;

const estimators = new Map<string, Promise<Estimator>>();

/** One estimator per language, built once per page. */
function estimatorFor(locale: string): Promise<Estimator> {
  let made = estimators.get(locale);
  if (!made) {
    made = (async () => {
      const [{ ZxcvbnFactory }, common, language] = await Promise.all([
        import('@zxcvbn-ts/core'),
        import('@zxcvbn-ts/language-common'),
        locale === 'de' ? import('@zxcvbn-ts/language-de') : import('@zxcvbn-ts/language-en'),
      ]);
      const zxcvbn = new ZxcvbnFactory({
        dictionary: { ...common.dictionary, ...language.dictionary },
        graphs: common.adjacencyGraphs,
        translations: language.translations,
      });
      const list = new Set(common.dictionary['passwords-common'].map((p) => p.toLowerCase()));
      return (password: string) => {
        const result = zxcvbn.check(password);
        return { score: result.score, warning: result.feedback.warning, common: list.has(password.toLowerCase()) };
      };
    })();
    estimators.set(locale, made);
  }
  return made;
}

const barColour = ['bg-red-600', 'bg-red-600', 'bg-amber-500', 'bg-emerald-600', 'bg-emerald-600'];

export function PasswordStrength({ password, minLength, id }: { password: string; minLength: number; id: string }) {
  const t = useTranslations('passwordPair.strength');
  const locale = useLocale();
  const [estimate, setEstimate] = useState<Estimate>();
  useEffect(() => {
    if (!password) return setEstimate(undefined);
    let current = true;
    estimatorFor(locale).then((estimator) => {
      if (current) setEstimate(estimator(password));
    });
    return () => {
      current = false;
    };
  }, [password, locale]);

  if (!password) return null;
  const short = password.length < minLength;
  // A common password is refused whatever zxcvbn scores it; a short one is weak by the server's rule.
  const score = short || estimate?.common ? 0 : (estimate?.score ?? 0);
  const message = short
    ? t('short', { count: minLength - password.length, minimum: minLength })
    : estimate?.common
      ? t('common')
      : (estimate?.warning ?? (estimate && estimate.score < 3 ? t('tip') : null));
  return (
    <div id={id} className="mt-1.5" data-score={estimate ? score : undefined}>
      <div className="flex gap-1" aria-hidden="true">
        {[0, 1, 2, 3].map((i) => (
          <span key={i} className={`h-1 flex-1 rounded-full ${estimate && i < Math.max(1, score) ? barColour[score] : 'bg-slate-200'}`} />
        ))}
      </div>
      {/* Read out after typing pauses, not at each key (polite), with the level's word: the colour is never alone. */}
      <p aria-live="polite" className="mt-1 text-sm text-slate-600">
        {estimate ? (
          <>
            <span className="font-medium text-slate-800">{t('label', { level: t(`levels.${score}`) })}</span>
            {message ? <span> · {message}</span> : null}
          </>
        ) : null}
      </p>
    </div>
  );
}
