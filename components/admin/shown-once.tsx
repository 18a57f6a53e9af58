/**
 * A secret shown once, right after it was made (an initial access token, a SCIM token, a webhook's signing secret):
 * what it is and that it must be copied now, the secret to copy, and the way on. Gatehouse keeps only its hash or
 * its sealed copy, so this answer is the one place it appears.
 */
import { ButtonLink } from '../ui/button';
import { CopyField } from '../ui/copy-field';
import { Notice } from '../ui/notice';

export function ShownOnce({
  heading,
  hint,
  field,
  done,
}: {
  heading: string;
  hint: string;
  field: { id: string; label: string; value: string };
  done: { href: string; label: string };
}) {
  return (
    <div className="space-y-4">
      <Notice variant="warning">
        <p className="font-semibold">{heading}</p>
        <p className="mt-1">{hint}</p>
      </Notice>
      <CopyField id={field.id} label={field.label} value={field.value} secret />
      <ButtonLink href={done.href} variant="secondary">
        {done.label}
      </ButtonLink>
    </div>
  );
}
