'use client';
/**
 * "Sign in with a passkey" on the sign-in page: the browser's WebAuthn
 * ceremony (@simplewebauthn/browser) for the options the page rendered, its
 * answer posted as a plain form to /interaction/:uid/passkey, so the server
 * answers with the same 303s as every other step. On the login step it also
 * offers passkeys in the username field's autofill where the browser supports
 * it (conditional mediation; the field says `autocomplete="username webauthn"`).
 *
 * Passkeys need JavaScript: without it the button stays disabled and a note
 * says so; the password (and a code) works without. Its words come from the
 * page, in the page's language (`texts`, passkey in the catalogs). Its form carries
 * the request's client and redirect_uri (RequestFields), as every interaction form
 * does, for the expired page's link back. As the second step it carries "Don't ask for a second step on this
 * device" too: a box of its own (`trustDevice`) when it is the only way on the page, else the state of the code
 * form's box (`trustBox`, its id), so the page shows one box whichever step the person takes. UI only.
 */
import { browserSupportsWebAuthn, browserSupportsWebAuthnAutofill, startAuthentication, WebAuthnAbortService } from '@simplewebauthn/browser';
import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { useCallback, useEffect, useRef, useState } from 'react';
import { webauthnFailure } from '@/lib/factors/webauthn-errors';
import { Button } from '../ui/button';
import { RequestFields } from './request-fields';
import { TrustDeviceBox } from './trust-device-box';

type Support = 'checking' | 'yes' | 'no';

/** What the button and its note say besides the label. */
export interface PasskeyTexts {
  waiting: string;
  cancelled: string;
  failed: string;
  unsupported: string;
  needsScript: string;
  /** The browser refused the page's origin for the server's RP ID. */
  security: string;
  /** The browser or authenticator cannot use the kind of passkey asked for. */
  notSupported: string;
}

export function PasskeySignIn({
  action,
  client,
  options,
  label,
  texts,
  autofill = false,
  variant = 'secondary',
  trustDevice,
  trustBox,
}: {
  action: string;
  /** The authorization request's client and redirect_uri, for the expired page's link back. */
  client: { id: string; redirectUri?: string };
  options: PublicKeyCredentialRequestOptionsJSON;
  label: string;
  texts: PasskeyTexts;
  /** Offer passkeys in the username field's autofill too (the login step). */
  autofill?: boolean;
  variant?: 'primary' | 'secondary';
  /** The trust box's label, for a box in this form (the second step with no code form). */
  trustDevice?: string;
  /** The id of the code form's trust box, whose state this form sends as its own `trust_device`. */
  trustBox?: string;
}) {
  const form = useRef<HTMLFormElement>(null);
  const answer = useRef<HTMLInputElement>(null);
  const trusted = useRef<HTMLInputElement>(null);
  const [support, setSupport] = useState<Support>('checking');
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = useCallback(
    (response: unknown) => {
      if (!answer.current || !form.current) return;
      answer.current.value = JSON.stringify(response);
      if (trusted.current && trustBox) trusted.current.value = (document.getElementById(trustBox) as HTMLInputElement | null)?.checked ? 'on' : '';
      form.current.submit();
    },
    [trustBox],
  );

  useEffect(() => {
    setSupport(browserSupportsWebAuthn() ? 'yes' : 'no');
    if (!autofill) return;
    let cancelled = false;
    void browserSupportsWebAuthnAutofill().then((supported) => {
      if (!supported || cancelled) return;
      // Waits until the person picks a passkey in the username field's suggestions; the button aborts it.
      startAuthentication({ optionsJSON: options, useBrowserAutofill: true }).then(submit, () => {});
    });
    return () => {
      cancelled = true;
      WebAuthnAbortService.cancelCeremony();
    };
  }, [autofill, options, submit]);

  const start = async () => {
    setProblem(undefined);
    setBusy(true);
    try {
      submit(await startAuthentication({ optionsJSON: options }));
    } catch (error) {
      setBusy(false);
      const failure = webauthnFailure(error);
      setProblem(
        failure === 'cancelled' ? texts.cancelled : failure === 'security' ? texts.security : failure === 'unsupported' ? texts.notSupported : texts.failed,
      );
    }
  };

  return (
    <form ref={form} method="post" action={action} className="space-y-2">
      <input ref={answer} type="hidden" name="response" />
      <RequestFields client={client} />
      {trustBox ? <input ref={trusted} type="hidden" name="trust_device" /> : null}
      <Button block type="button" variant={variant} onClick={start} disabled={support !== 'yes' || busy} aria-describedby="passkey-note">
        {busy ? texts.waiting : label}
      </Button>
      <p id="passkey-note" className="text-xs text-slate-600" role={problem ? 'alert' : undefined}>
        {problem ?? (support === 'no' ? texts.unsupported : support === 'checking' ? texts.needsScript : '')}
      </p>
      {trustBox ? null : <TrustDeviceBox label={trustDevice} />}
    </form>
  );
}
