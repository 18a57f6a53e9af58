/**
 * Choosing a user's new password: generated (the default, shown once after
 * saving) or typed twice; for a new user, an invitation instead. The typed fields show only when "Type a password" is
 * picked, with CSS alone, so the choice works without JavaScript. A password is
 * never rendered back into these fields.
 */
import { border, ChoiceCard, describedBy, Field, inputLook } from '../ui/field';
import type { PasswordChoice, UserFieldErrors } from '@/lib/services/portal/user-form';

/**
 * `hideLegend`: inside a card already titled "Password", the legend is for screen readers only.
 * `invite`: a new user's form also offers an invitation (no password: a mailed link lets the person choose it);
 * `{ available: false }` shows why it cannot be picked on this server.
 */
export function PasswordFields({
  idPrefix,
  choice,
  errors,
  hideLegend = false,
  invite,
}: {
  idPrefix: string;
  choice: PasswordChoice | 'invite';
  errors: UserFieldErrors;
  hideLegend?: boolean;
  invite?: { available: boolean; validDays: number };
}) {
  const typeId = `${idPrefix}-type`;
  const options = [
    ...(invite
      ? [
          {
            value: 'invite',
            id: `${idPrefix}-invite`,
            label: 'Send an invitation',
            hint: invite.available
              ? `They choose their password with a link mailed to their email address (works once, for ${invite.validDays} days).`
              : 'Needs mail: this server sends none (SMTP_URL is not set).',
            disabled: !invite.available,
          },
        ]
      : []),
    { value: 'generate', id: `${idPrefix}-generate`, label: 'Generate a strong password', hint: 'Shown once, after saving, for you to pass on.' },
    { value: 'type', id: typeId, label: 'Type a password', hint: 'At least 8 characters; typed twice.' },
  ];
  return (
    <fieldset className="group space-y-3">
      <legend className={hideLegend ? 'sr-only' : 'text-sm font-medium text-slate-800'}>{invite ? 'Password or invitation' : 'Password'}</legend>
      <div className={`grid gap-2 ${invite ? 'sm:grid-cols-3' : 'sm:grid-cols-2'}`}>
        {options.map((o) => (
          <ChoiceCard
            key={o.value}
            id={o.id}
            type="radio"
            name="passwordChoice"
            value={o.value}
            defaultChecked={choice === o.value}
            label={o.label}
            hint={o.hint}
            disabled={'disabled' in o ? o.disabled : undefined}
          />
        ))}
      </div>
      <div className="hidden space-y-4 group-has-[input[value=type]:checked]:block">
        <Field id={`${idPrefix}-password`} label="New password" errors={errors.password}>
          <input
            id={`${idPrefix}-password`}
            name="password"
            type="password"
            autoComplete="new-password"
            maxLength={257}
            aria-invalid={!!errors.password}
            aria-describedby={describedBy(`${idPrefix}-password`, false, errors.password)}
            className={`${inputLook} ${border(!!errors.password)}`}
          />
        </Field>
        <Field id={`${idPrefix}-confirm`} label="New password, again" errors={errors.confirmPassword}>
          <input
            id={`${idPrefix}-confirm`}
            name="confirmPassword"
            type="password"
            autoComplete="new-password"
            maxLength={257}
            aria-invalid={!!errors.confirmPassword}
            aria-describedby={describedBy(`${idPrefix}-confirm`, false, errors.confirmPassword)}
            className={`${inputLook} ${border(!!errors.confirmPassword)}`}
          />
        </Field>
      </div>
    </fieldset>
  );
}
