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
import { type Operation, operations } from './operations.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const apiDir = join(root, 'app', 'api', 'admin');

export interface RouteExport {
  file: string;
  path: string;
  method: string;
  /** The endpoint served: `adminRoutes(<operation id>, ...)`; undefined when the name is no operation. */
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
        const file = relative(root, path);
        const handlers = [...source.matchAll(/^export const \{ GET, POST, PUT, PATCH, DELETE \} = adminRoutes\(([\w, ]+)\);$/gm)];
        assert.equal(handlers.length, 1, `${file}: export every method as \`export const { GET, POST, PUT, PATCH, DELETE } = adminRoutes(...)\``);
        for (const operationId of handlers[0][1].split(',').map((name) => name.trim())) {
          // The method is the operation's own (adminRoutes serves each endpoint under it).
          const operation = (operations as Record<string, Operation>)[operationId];
          found.push({ file, path: urlPath, method: operation?.method ?? '?', operationId: operation ? operationId : undefined });
        }
        assert.doesNotMatch(
          source,
          /^export (?:async )?function|^export \{|^export const (GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\b/m,
          `${file}: only adminRoutes exports handlers`,
        );
      }
    }
  };
  visit(dir);
  return found;
}
