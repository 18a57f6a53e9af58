'use client';
// Shown once, right after Gatehouse generated a user's password: it is in this answer and nowhere else.
import { CopyField } from '../ui/copy-field';
import { Notice } from '../ui/notice';

export function PasswordReveal({ heading, username, password }: { heading: string; username: string; password: string }) {
  return (
    <div>
      <Notice variant="warning">
        <p className="font-semibold">{heading}</p>
        <p className="mt-1">
          Copy the password now and pass it on to {username} over a safe channel. Gatehouse stores only a hash of it and will never show it again.
        </p>
      </Notice>
      <CopyField id="generated-password" label="Generated password" value={password} secret />
    </div>
  );
}
