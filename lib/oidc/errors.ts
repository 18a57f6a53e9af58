/**
 * Protocol errors in the RFC's words: a JSON body {"error", "error_description"}
 * (RFC 6749 §5.2) with the RFC's status code, never cached, never a stack trace.
 */
export function oauthError(status: number, error: string, description: string, headers: Record<string, string> = {}): Response {
  return Response.json({ error, error_description: description }, { status, headers: { 'cache-control': 'no-store', pragma: 'no-cache', ...headers } });
}
