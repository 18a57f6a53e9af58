'use client';
/**
 * The check-your-mail step moving on by itself: it asks /interaction/:uid/status (one bit, for this
 * browser's interaction only) every few seconds, and once the link was opened, here or on another
 * device, posts the step's "continue" form as the button would. Without JavaScript nothing runs and
 * the button is still there. UI only.
 */
import { useEffect, useRef } from 'react';

/** Often enough to feel immediate; slower after a while, when the person has likely gone elsewhere. */
const FIRST_MS = 3_000;
const LATER_MS = 10_000;
const SLOW_AFTER_MS = 10 * 60_000;

export function VerificationWatch({ base, label }: { base: string; label: string }) {
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    const started = Date.now();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const poll = async () => {
      try {
        const response = await fetch(`${base}/status`, { cache: 'no-store', credentials: 'same-origin' });
        const status = response.ok ? ((await response.json()) as { verified?: unknown }) : undefined;
        if (status?.verified === true && !stopped) {
          stopped = true;
          form.current?.submit();
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
  return (
    <>
      <p className="mt-2 text-sm text-slate-600">{label}</p>
      <form ref={form} method="post" action={`${base}/continue`} hidden />
    </>
  );
}
