'use client';
// Shown once, right after a client is created or its secret rotated: the secret is in this answer and nowhere else.
import { CopyField } from '../ui/copy-field';
import { Notice } from '../ui/notice';

export function SecretReveal({ clientId, clientSecret, heading }: { clientId?: string; clientSecret: string; heading: string }) {
  return (
    <div>
      <Notice variant="warning">
        <p className="font-semibold">{heading}</p>
        <p className="mt-1">Copy the client secret now. Gatehouse stores only a hash of it and will never show it again.</p>
      </Notice>
      <div className="space-y-4">
        {clientId ? <CopyField id="client-id" label="Client ID" value={clientId} /> : null}
        <CopyField id="client-secret" label="Client secret" value={clientSecret} secret />
      </div>
    </div>
  );
}
