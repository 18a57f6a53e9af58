/**
 * The sign-in card's form parts as app/interaction/[uid]/page.tsx (owned by another change) imports them:
 * the kit's Button full width, its compact Field with a text input, its compact error Notice.
 * New pages use components/ui directly.
 */
import type { ButtonHTMLAttributes, InputHTMLAttributes, ReactNode } from 'react';
import { Button as KitButton, type ButtonVariant } from './ui/button';
import { TextField } from './ui/field';
import { Notice } from './ui/notice';

export function Field(props: { id: string; label: string } & InputHTMLAttributes<HTMLInputElement>) {
  return <TextField compact {...props} />;
}

export function Button(props: { variant?: ButtonVariant } & ButtonHTMLAttributes<HTMLButtonElement>) {
  return <KitButton block {...props} />;
}

export function Alert({ children }: { children: ReactNode }) {
  return (
    <Notice variant="error" compact>
      {children}
    </Notice>
  );
}
