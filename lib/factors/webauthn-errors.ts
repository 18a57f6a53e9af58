/**
 * Why a browser's WebAuthn ceremony failed, by the DOMException's name the browser threw (WebAuthn Level 3
 * §5.1.3 create and §5.1.4 get, step by step), so a page words the real cause instead of "cancelled" for
 * everything: the person cancelled or the prompt timed out (the two are one error by design, so a page
 * cannot tell a person's "no" from a timeout: §14.5.2), the authenticator holds one of the account's
 * credentials already, the page's origin cannot use the server's RP ID (an IP address, another domain),
 * or the browser or authenticator supports none of the asked algorithms or options.
 */
export type WebAuthnFailure = 'cancelled' | 'exists' | 'security' | 'unsupported' | 'failed';

export function webauthnFailure(error: unknown): WebAuthnFailure {
  switch ((error as { name?: unknown } | null)?.name) {
    case 'NotAllowedError':
    case 'AbortError':
      return 'cancelled';
    case 'InvalidStateError':
      return 'exists';
    case 'SecurityError':
      return 'security';
    case 'NotSupportedError':
      return 'unsupported';
    default:
      return 'failed';
  }
}
