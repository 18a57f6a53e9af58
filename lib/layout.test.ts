// Surfaces apart: what biome.jsonc's noRestrictedImports cannot see (calls, and import()s of a module by its path).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

const root = path.resolve(import.meta.dirname, '..');

function sources(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|tsx|mjs)$/.test(entry.name))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .filter((file) => !file.startsWith('lib/generated/'));
}

/** The code without its comments (which may name what they must not call). */
const code = (file: string) =>
  readFileSync(path.join(root, file), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|\s)\/\/.*$/gm, '$1');

/** Every module specifier: static imports and exports, import() and import 'x'. */
const specifiers = (text: string) => [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])([^'"\n]+)\1/g)].map((match) => match[2]);

const all = ['app', 'lib', 'components', 'cli', 'scripts', 'bench', 'e2e'].flatMap(sources).concat(['instrumentation.ts', 'proxy.ts']);

test('serverContext() is called only by the surfaces: app/, lib/surfaces/ and Next’s instrumentation hook', () => {
  // instrumentation.ts is Next's own entry point beside app/ (register, onRequestError): nothing can pass it a context.
  const allowed = (file: string) => file.startsWith('app/') || file.startsWith('lib/surfaces/') || file === 'instrumentation.ts';
  const callers = all.filter(
    (file) => !allowed(file) && file !== 'lib/layout.test.ts' && /\bserverContext\(\)/.test(code(file).replace(/\bfunction serverContext\(\)/, '')),
  );
  assert.deepEqual(callers, []);
});

test('below the surfaces, nothing imports the framework or a surface', () => {
  // next-intl's request configuration is Next's entry point (next.config names the file), as biome.jsonc says.
  const below = sources('lib').filter((file) => !file.startsWith('lib/surfaces/') && file !== 'lib/i18n/request.ts');
  const framework = /^(?:next|next-auth|next-intl|react|react-dom)(?:\/|$)/;
  const offending = below.flatMap((file) =>
    specifiers(code(file))
      .filter((spec) => framework.test(spec) || /(?:^|\/)surfaces(?:\/|$)/.test(spec))
      .map((spec) => `${file} imports ${spec}`),
  );
  assert.deepEqual(offending, []);
});

test('the context and the platform never import the use cases they serve (a domain’s repository they may)', () => {
  const platform = sources('lib/platform').concat('lib/context.ts');
  const offending = platform.flatMap((file) =>
    specifiers(code(file))
      .filter(
        (spec) =>
          /(?:^|\/)(?:surfaces|account|admin-roles|audit|authorization|claims|clients|consents|factors|federation|keys|logout|mail-links|registration|scim|sign-in|users|webhooks)(?:\/|$)/.test(
            spec,
          ) && !spec.endsWith('/repository.ts'),
      )
      .map((spec) => `${file} imports ${spec}`),
  );
  assert.deepEqual(offending, []);
});

test('at most three slots on globalThis, each where Next forces one', () => {
  // Next evaluates instrumentation, route handlers and pages as separate module graphs: what they share is one
  // record (lib/platform/process.ts); scripts/server.mjs cannot import the app and waits for it in the second
  // (lib/start/handover.ts, with its own side in the script); the portal's next-auth setup is the third.
  const slots = ['lib/platform/process.ts', 'lib/start/handover.ts', 'scripts/server.mjs', 'lib/surfaces/portal/auth.ts'];
  const holders = all.filter((file) => !/\.(test|spec)\.ts$/.test(file) && !file.startsWith('e2e/') && /\bglobalThis\b/.test(code(file)));
  assert.deepEqual(holders.sort(), slots.sort());
});

test('one link between pages: only components/ui/link.tsx imports next/link (no prefetch of dynamic pages)', () => {
  const importers = all.filter((file) => specifiers(code(file)).includes('next/link'));
  assert.deepEqual(importers, ['components/ui/link.tsx']);
});
