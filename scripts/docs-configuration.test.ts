import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { OTHER_SETTINGS, SETTINGS } from '../lib/config/env.ts';
import { CONFIGURATION_PAGE, configurationPage, documentedProperties, readSettings } from './docs-configuration.ts';

test('docs/configuration.md is what `npm run docs` writes from lib/config/env.ts today', () => {
  const written = readFileSync(CONFIGURATION_PAGE, 'utf8');
  assert.ok(written === configurationPage(), 'docs/configuration.md is stale: run `npm run docs` and commit the page');
});

test('every setting, in the schema and read apart from it, has a doc comment and a row on the page', () => {
  const { settings, others, problems } = readSettings();
  assert.deepEqual(problems, []);
  const names = [...settings, ...others].map((s) => s.name);
  assert.deepEqual(names, [...Object.keys(SETTINGS.shape), ...Object.keys(OTHER_SETTINGS)]);
  const page = configurationPage();
  for (const setting of [...settings, ...others]) {
    assert.ok(setting.description.length > 10, `${setting.name} has a description`);
    assert.ok(page.includes(`| \`${setting.name}\` | ${setting.default} |`), `${setting.name} has a row`);
  }
});

test("the page's defaults are the schema's", () => {
  const rows = new Map(readSettings().settings.map((s) => [s.name, s.default]));
  assert.equal(rows.get('ACCESS_TOKEN_TTL'), '`3600`');
  assert.equal(rows.get('REFRESH_TOKEN_TTL'), '`1209600` (14 days)');
  assert.equal(rows.get('LOG_LEVEL'), '`info`');
  assert.equal(rows.get('ISSUER'), '`http://localhost:PORT`');
  assert.equal(rows.get('METRICS_PORT'), 'unset (no metrics)');
});

test('a setting without a doc comment, or one the reading misses, is a problem, not a missing row', () => {
  const source = readFileSync(new URL('../lib/config/env.ts', import.meta.url), 'utf8');
  const uncommented = source.replace(/\/\*\*(?:(?!\*\/)[\s\S])*\*\/\n(\s+ACCESS_TOKEN_TTL:)/, '$1');
  assert.notEqual(uncommented, source);
  assert.deepEqual(readSettings(uncommented).problems, ['ACCESS_TOKEN_TTL: no doc comment (/** ... */) right above it in lib/config/env.ts']);
  // A property the reading does not see (indented otherwise) is still named, from the schema's keys.
  const unread = source.replace('\n  SESSION_TTL:', '\n    SESSION_TTL:');
  assert.ok(readSettings(unread).problems.some((p) => p.startsWith('SESSION_TTL: no doc comment')));
  assert.throws(() => documentedProperties(source, 'const nothing = {'), /no line starts with/);
});

test('a comment tag other than @default is refused rather than printed', () => {
  const source = 'const envSchema = z.object({\n  /**\n   * Some setting.\n   * @deprecated soon\n   */\n  X: z.string(),\n});\n';
  assert.throws(() => documentedProperties(source, 'const envSchema = z.object({'), /only @default is understood/);
});
