/**
 * Logs an unexpected error with the request id the client also received, so a
 * report can be matched to a log line. The message and stack are logged; request
 * bodies, headers and parameters (which carry codes, tokens and secrets) are not.
 */
export function logServerError(requestId: string | undefined, error: unknown): void {
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  console.error(`[gatehouse] server_error request_id=${requestId ?? '-'} ${detail}`);
}
