/**
 * Host and scheme come from the configured issuer, never from the request:
 * `next start`, a custom server and a misconfigured proxy all pass client-sent
 * Host and X-Forwarded-* through, and a spoofed value must not change a URL in
 * discovery, a redirect or a cookie's Secure flag.
 *
 * The provider runs with Koa's `proxy` on and reads only what is written here:
 * X-Forwarded-Host and X-Forwarded-Proto are replaced with the issuer's, the
 * other forwarding headers that could name a host or scheme are removed.
 * X-Forwarded-For stays for the audit log, which trusts it only under TRUST_PROXY
 * (lib/platform/request-context.ts).
 */
import type { IncomingHttpHeaders } from 'node:http';

const removed = ['forwarded', 'x-forwarded-port', 'x-forwarded-prefix'];

export function pinToIssuer(headers: IncomingHttpHeaders, issuer: URL, requestId: string): void {
  for (const name of removed) delete headers[name];
  headers.host = issuer.host;
  headers['x-forwarded-host'] = issuer.host;
  headers['x-forwarded-proto'] = issuer.protocol.slice(0, -1);
  headers['x-request-id'] = requestId;
}
