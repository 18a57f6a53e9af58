/**
 * What the provider's chain learns about a request that its mount logs
 * (lib/ops/request-observer.ts): the client it was for. Kept on the Node request
 * under a global symbol: under `next start` the provider's chain and the route
 * handler that logs come from different module graphs.
 */
import type { IncomingMessage } from 'node:http';

export interface RequestFacts {
  /** The authenticated client, else the client_id the request named; never its secret. */
  clientId?: string;
}

const FACTS = Symbol.for('gatehouse.requestFacts');
type WithFacts = IncomingMessage & { [FACTS]?: RequestFacts };

/** The request's facts, created on first use. */
export function requestFacts(req: IncomingMessage): RequestFacts {
  const carrier = req as WithFacts;
  carrier[FACTS] ??= {};
  return carrier[FACTS];
}

/** Makes `facts` the request's (a mount that reads them after the provider answered). */
export function shareRequestFacts(req: IncomingMessage, facts: RequestFacts): void {
  (req as WithFacts)[FACTS] = facts;
}
