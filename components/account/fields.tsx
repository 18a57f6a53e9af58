/** The account forms' text input: the kit's TextField, with messages that start with a capital (each stands alone under its field). UI only. */
import type { ComponentProps } from 'react';
import { TextField as KitTextField } from '../ui/field';

const sentence = (message: string) => message.charAt(0).toUpperCase() + message.slice(1);

export function TextField({ errors, ...props }: ComponentProps<typeof KitTextField>) {
  return <KitTextField errors={errors?.map(sentence)} {...props} />;
}
