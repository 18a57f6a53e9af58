/** A new password typed twice, its rules as the hint: the fields `password` and `confirmPassword` of the forms that set one. UI only. */
import { TextField } from '../ui/field';

const sentence = (messages?: string[]) => messages?.map((m) => m.charAt(0).toUpperCase() + m.slice(1));

export function PasswordPair({
  label,
  minLength,
  errors,
  autoFocus,
}: {
  /** "New password": the second field is "<label> again". */
  label: string;
  minLength: number;
  errors: { password?: string[]; confirmPassword?: string[] };
  autoFocus?: boolean;
}) {
  return (
    <>
      <TextField
        compact
        id="password"
        label={label}
        hint={`At least ${minLength} characters.`}
        type="password"
        autoComplete="new-password"
        required
        autoFocus={autoFocus}
        errors={sentence(errors.password)}
      />
      <TextField
        compact
        id="confirmPassword"
        label={`${label} again`}
        type="password"
        autoComplete="new-password"
        required
        errors={sentence(errors.confirmPassword)}
      />
    </>
  );
}
