// Types of scripts/build-stamp.mjs, for the tests that import it.
export function sourceHash(): string;
export function stampFile(distDir: string): string;
