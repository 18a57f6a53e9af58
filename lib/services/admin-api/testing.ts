/**
 * The route files of the admin API as they are on disk, for the tests that
 * hold them against the operations table and the OpenAPI document (the unit
 * test in openapi.test.ts, the protocol test against the served document).
 * Not a test file itself.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const apiDir = join(root, 'app', 'api', 'admin');

export interface RouteExport {
  file: string;
  path: string;
  method: string;
  /** The endpoint the export wraps: `adminRoute(<operation id>)`. */
  operationId: string | undefined;
}

/** The exported handlers of every route file under app/api/admin, with the path its folders make (`[id]` → `{id}`). */
export function adminRouteExports(dir = apiDir): RouteExport[] {
  const found: RouteExport[] = [];
  const visit = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (entry.name === 'route.ts') {
        const segments = relative(apiDir, folder).split(sep).filter(Boolean);
        // The catch-all ([[...path]]) is the JSON 404 for paths that are not operations.
        if (segments.some((s) => s.includes('[...'))) continue;
        const urlPath = ['/api/admin', ...segments.map((s) => s.replace(/^\[(.+)\]$/, '{$1}'))].join('/');
        const source = readFileSync(path, 'utf8');
        for (const match of source.matchAll(/^export const (GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) = (.+);$/gm)) {
          found.push({ file: relative(root, path), path: urlPath, method: match[1], operationId: /^adminRoute\((\w+)\)$/.exec(match[2])?.[1] });
        }
        assert.doesNotMatch(
          source,
          /^export (?:async )?function|^export \{/m,
          `${relative(root, path)}: export handlers as \`export const METHOD = adminRoute(...)\``,
        );
      }
    }
  };
  visit(dir);
  return found;
}
