// Types of ./workers.mjs, for lib/config/env.ts, the bench and the tests.
export const MAX_WORKERS: number;
export const WORKERS_RULE: string;
export function workerCount(value: string | undefined, cores: number): number | undefined;
