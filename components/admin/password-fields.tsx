/**
 * Choosing a user's new password: generated (the default, shown once after
 * saving) or typed twice; for a new user, an invitation instead. The typed fields show only when "Type a password" is
 * picked, with CSS alone, so the choice works without JavaScript. A password is
 * never rendered back into these fields. In the page's language (admin.userForm).
 */
import { useTranslations } from 'next-intl';
import { border, ChoiceCard, describedBy, Field, inputLook } from '../ui/field';
import type { PasswordChoice } from '@/lib/surfaces/portal/user-fields';

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
  /** The fields' messages, worded already. */
  errors: { password?: string[]; confirmPassword?: string[] };
  hideLegend?: boolean;
  invite?: { available: boolean; validDays: number };
}) {
  const t = useTranslations('admin.userForm');
  const typeId = `${idPrefix}-type`;
  const options = [
    ...(invite
      ? [
          {
            value: 'invite',
            id: `${idPrefix}-invite`,
            label: t('invite'),
            hint: invite.available ? t('inviteHint', { days: invite.validDays }) : t('inviteOff'),
            disabled: !invite.available,
          },
        ]
      : []),
    { value: 'generate', id: `${idPrefix}-generate`, label: t('generate'), hint: t('generateHint') },
    { value: 'type', id: typeId, label: t('type'), hint: t('typeHint') },
  ];
  return (
    <fieldset className="group space-y-3">
      <legend className={hideLegend ? 'sr-only' : 'text-sm font-medium text-slate-800'}>{invite ? t('passwordOrInvitation') : t('password')}</legend>
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
        <Field id={`${idPrefix}-password`} label={t('newPassword')} errors={errors.password}>
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
        <Field id={`${idPrefix}-confirm`} label={t('newPasswordAgain')} errors={errors.confirmPassword}>
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
