'use client';
/**
 * Ways to keep the recovery codes shown once: copy (all of them, one a line), download as a text file,
 * print. Download is a plain link to a data: URL, so it works without JavaScript; copy and print appear
 * once it runs. Printing shows only the codes (the `print-only-codes` rules in app/globals.css). In the
 * page's language (`account.security`). UI only.
 */
import { useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';
import { buttonLook } from '../ui/button';
import { CopyButton } from '../ui/copy-field';

/** The file's text: what the codes are for, where, and the codes, one a line. */
export const recoveryCodesText = (heading: string, codes: string[]) => `${heading}\n\n${codes.join('\n')}\n`;

export function RecoveryCodeActions({ codes, product, username, listId }: { codes: string[]; product: string; username: string; listId: string }) {
  const t = useTranslations('account.security');
  const [scripted, setScripted] = useState(false);
  useEffect(() => setScripted(true), []);
  const text = recoveryCodesText(t('codesFileHeading', { product, username }), codes);
  const file = `${product}-recovery-codes.txt`.replace(/[^\w.-]+/g, '-');
  return (
    <div className="mt-3 flex flex-wrap gap-2 print:hidden">
      {/* What copying selects where the browser has no clipboard API (a page not served over https). */}
      <textarea id={`${listId}-text`} readOnly tabIndex={-1} aria-hidden="true" value={text} className="sr-only" />
      {scripted ? <CopyButton value={text} label={t('codesLabel')} targetId={`${listId}-text`} /> : null}
      <a href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`} download={file} className={buttonLook('secondary', false)}>
        {t('download')}
      </a>
      {scripted ? (
        <button type="button" onClick={() => window.print()} className={buttonLook('secondary', false)}>
          {t('print')}
        </button>
      ) : null}
    </div>
  );
}
