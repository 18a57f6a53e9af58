/** Where a session was signed in from, as /account and an admin's user page both say it. */
import type { ReactNode } from 'react';

/** " from 203.0.113.7" after "Signed in <when>", or nothing when the sign-in's address is not known. */
export function SignedInFrom({ when, ip }: { when: ReactNode; ip: string | null }) {
  return (
    <>
      Signed in {when}
      {ip ? (
        <>
          {' '}
          from <span className="font-mono text-xs">{ip}</span>
        </>
      ) : null}
    </>
  );
}
