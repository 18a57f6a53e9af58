'use client';
/**
 * The check-your-mail step moving on by itself: it asks /interaction/:uid/status (one bit, for this
 * browser's interaction only) every few seconds, and once the link was opened, here or on another
 * device, loads the step again: it now says the address is confirmed, its "Continue" button focused.
 * It does not press that button itself: a page that signs in to an app while nobody is looking is a
 * change of context the person did not ask for (WCAG 3.2.5), and the next step may ask them something
 * (consent). Without JavaScript nothing runs and "I've confirmed — continue" does the same. UI only.
 */
import { useEffect, useState } from 'react';

/** Often enough to feel immediate; slower after a while, when the person has likely gone elsewhere. */
const FIRST_MS = 3_000;
const LATER_MS = 10_000;
const SLOW_AFTER_MS = 10 * 60_000;

export function VerificationWatch({ base, label }: { base: string; label: string }) {
  // Said only once the script runs: without it, the page does not move on by itself.
  const [watching, setWatching] = useState(false);
  useEffect(() => {
    setWatching(true);
    const started = Date.now();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const poll = async () => {
      try {
        const response = await fetch(`${base}/status`, { cache: 'no-store', credentials: 'same-origin' });
        const status = response.ok ? ((await response.json()) as { verified?: unknown }) : undefined;
        if (status?.verified === true && !stopped) {
          stopped = true;
          // The step's own address, without a notice or refusal of an earlier post in its query.
          window.location.replace(base);
          return;
        }
      } catch {
        // Offline for a moment: the next poll tries again.
      }
      if (!stopped) timer = setTimeout(poll, Date.now() - started > SLOW_AFTER_MS ? LATER_MS : FIRST_MS);
    };
    timer = setTimeout(poll, FIRST_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [base]);
  return watching ? <p className="mt-2 text-sm text-slate-600">{label}</p> : null;
}
