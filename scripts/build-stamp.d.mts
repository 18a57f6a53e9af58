// Types of scripts/build-stamp.mjs, for the tests that import it.
export function sourceHash(root?: string): string;
export function stampFile(distDir: string): string;
export function isCurrent(distDir: string, hash: string, root?: string): boolean;
export function build(distDir: string, options?: { args?: string[]; root?: string; next?: string }): Promise<number>;
