/** The account forms' text input: the kit's TextField, with messages that start with a capital (each stands alone under its field). UI only. */
import { useTranslations } from 'next-intl';
import type { ComponentProps } from 'react';
import { TextField as KitTextField } from '../ui/field';

/** A message that stands alone under its field, with a capital. */
export const sentence = (message: string) => message.charAt(0).toUpperCase() + message.slice(1);

export function TextField({ errors, ...props }: ComponentProps<typeof KitTextField>) {
  return <KitTextField errors={errors?.map(sentence)} {...props} />;
}

/** The current password, asked again before a change that weakens the account or adds a way in. `id` unique on the page. */
export function CurrentPasswordField({ id, errors }: { id: string; errors?: string[] }) {
  const t = useTranslations('account.security');
  return <TextField id={id} name="currentPassword" label={t('currentPassword')} type="password" autoComplete="current-password" required errors={errors} />;
}
