/**
 * A field for a 6-digit code from a mail (the check-your-mail step's, the email sign-in code's) and
 * its button: a plain form post. `one-time-code` lets a phone offer the code from the mail. UI only.
 */
import { Button } from '../ui/button';
import { TextField } from '../ui/field';

export function MailCodeForm({
  action,
  label,
  submit,
  autoFocus,
  primary,
  children,
}: {
  action: string;
  label: string;
  submit: string;
  autoFocus?: boolean;
  /** The page's main action (the sign-in code's), rather than an alternative to the link. */
  primary?: boolean;
  /** Hidden fields the post carries too. */
  children?: React.ReactNode;
}) {
  return (
    <form method="post" action={action} className="mt-6 space-y-3">
      {children}
      <TextField
        compact
        id="code"
        name="code"
        label={label}
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="[0-9 \-]*"
        required
        autoFocus={autoFocus}
        maxLength={16}
        spellCheck={false}
      />
      <Button block type="submit" variant={primary ? 'primary' : 'secondary'}>
        {submit}
      </Button>
    </form>
  );
}
