/** The answer to a create form: the credential shown once (or a plain notice when there is none), then the way on to the new page. */
import type { ReactNode } from 'react';
import { ButtonLink } from '../ui/button';
import { Notice } from '../ui/notice';

export function Created({ heading, reveal, href, next, children }: { heading: string; reveal?: ReactNode; href: string; next: string; children: ReactNode }) {
  return (
    <div className="space-y-6">
      {reveal ?? (
        <Notice>
          <p className="font-semibold">{heading}</p>
          <p className="mt-1">{children}</p>
        </Notice>
      )}
      <ButtonLink href={href}>{next}</ButtonLink>
    </div>
  );
}
