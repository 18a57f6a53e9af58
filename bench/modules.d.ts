// Types for the untyped modules the benchmark uses: autocannon 8, and two files of oidc-provider 9.
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  export interface AutocannonRequest {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    setupRequest?: (request: AutocannonRequest, context: Record<string, unknown>) => AutocannonRequest | undefined;
    onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
  }

  export interface AutocannonOptions {
    /** Several: connection i goes to url i mod n. */
    url: string | string[];
    connections?: number;
    duration?: number;
    amount?: number;
    timeout?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    requests?: AutocannonRequest[];
  }

  export interface AutocannonResult {
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    statusCodeStats: Record<string, { count: number }>;
  }

  export interface Instance extends EventEmitter, PromiseLike<AutocannonResult> {
    stop(): void;
  }

  export default function autocannon(options: AutocannonOptions): Instance;
}

// oidc-provider's own in-memory store (no exports map, so its files can be imported directly).
declare module 'oidc-provider/lib/adapters/memory_adapter.js' {
  import type { Adapter } from 'oidc-provider';
  export default class MemoryAdapter implements Adapter {
    constructor(model: string, store?: unknown, clockTolerance?: number);
    upsert: Adapter['upsert'];
    find: Adapter['find'];
    findByUserCode: Adapter['findByUserCode'];
    findByUid: Adapter['findByUid'];
    consume: Adapter['consume'];
    destroy: Adapter['destroy'];
    revokeByGrantId: Adapter['revokeByGrantId'];
  }
}
declare module 'oidc-provider/lib/helpers/lru.js' {
  export default class LRU {
    constructor(options: { maxSize: number });
  }
}
