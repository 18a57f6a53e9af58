/**
 * Where `next build` writes the app and where the servers read it (Next's `distDir`),
 * from GATEHOUSE_DIST_DIR: `.next` by default, which `npm start` builds and serves.
 * `npm test` builds into `.next-test` and `npm run bench` into `.next-bench`, so that
 * neither rewrites the build of a server running from the same checkout: a server keeps
 * reading its chunks and server-action manifest from its folder while it runs, and a
 * rebuild under it answers every form with "Failed to find Server Action" until a restart.
 *
 * Only `.next` or `.next-<name>`: one folder at the project's root, which .gitignore,
 * Biome and tsconfig.json's includes already expect (Next adds `<distDir>/types` to
 * tsconfig.json when it is missing, which would leave the tree changed after a build).
 *
 * No imports: next.config.js loads this file before anything is built.
 */

export const DIST_DIR_VARIABLE = 'GATEHOUSE_DIST_DIR';

/** The build folders of `npm start`, `npm test` and `npm run bench`. */
export const DIST_DIRS = { start: '.next', test: '.next-test', bench: '.next-bench' } as const;

const allowed = /^\.next(-[a-z0-9]+)*$/;

/** The build folder named by the environment; throws on anything but `.next` or `.next-<name>`. */
export function distDir(env: Record<string, string | undefined> = process.env): string {
  const value = env[DIST_DIR_VARIABLE] || DIST_DIRS.start;
  if (!allowed.test(value)) {
    throw new Error(
      `${DIST_DIR_VARIABLE} must be .next or .next-<name> (lowercase letters, digits and dashes), a folder at the project's root: got ${JSON.stringify(value)}`,
    );
  }
  return value;
}
