// Every catalog has exactly the English catalog's keys, and every message the same arguments.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SUPPORTED_LOCALES } from './locale.ts';
import { type AuditAction, auditActionLabels } from '../audit/events.ts';
import { catalogs, formatUtc, translator } from './messages.ts';

type Tree = { [key: string]: string | Tree };

/** Every key path of a catalog, with the names of the {arguments} and <tags> its message uses. */
function shape(tree: Tree, prefix = ''): Map<string, string> {
  const found = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') {
      const args = new Set([...value.matchAll(/\{\s*(\w+)\s*[,}]/g), ...value.matchAll(/<(\w+)>/g)].map((m) => m[1]));
      found.set(path, [...args].sort().join(','));
    } else for (const [k, v] of shape(value, path)) found.set(k, v);
  }
  return found;
}

test('every supported language has a catalog with exactly the same keys and arguments as English', () => {
  const english = shape(catalogs.en);
  for (const locale of SUPPORTED_LOCALES) {
    const other = shape(catalogs[locale]);
    assert.deepEqual([...other.keys()].sort(), [...english.keys()].sort(), `${locale}: keys`);
    for (const [key, args] of english) assert.equal(other.get(key), args, `${locale}: the arguments of ${key}`);
  }
});

test('plurals and times follow the language', () => {
  assert.equal(translator('de', 'interaction.errors')('throttled_minutes', { count: 1 }), 'Zu viele Versuche; versuchen Sie es in 1 Minute erneut.');
  assert.equal(translator('en', 'interaction.errors')('throttled_minutes', { count: 15 }), 'Too many attempts; try again in 15 minutes.');
  const moment = new Date(Date.UTC(2026, 10, 24, 21, 5));
  assert.match(formatUtc('en', moment), /^Nov 24, 2026, 9:05\sPM$/);
  assert.equal(formatUtc('de', moment), '24.11.2026, 21:05');
});

test('every audit action has words in every catalog (the activity list on /account)', () => {
  for (const locale of SUPPORTED_LOCALES) {
    const t = translator(locale, 'auditActions');
    for (const action of Object.keys(auditActionLabels) as AuditAction[]) assert.ok(t.has(action), `${locale}: auditActions.${action}`);
  }
  assert.equal(translator('de', 'auditActions')('sign_in.succeeded'), 'Angemeldet');
});

test('no message uses one name for an argument and a tag (next-intl would put the tag’s function where the argument goes)', () => {
  for (const locale of SUPPORTED_LOCALES) {
    const walk = (tree: Tree, prefix: string) => {
      for (const [key, value] of Object.entries(tree)) {
        if (typeof value !== 'string') walk(value, `${prefix}${key}.`);
        else {
          const tags = new Set([...value.matchAll(/<(\w+)>/g)].map((m) => m[1]));
          const clash = [...value.matchAll(/\{\s*(\w+)\s*[,}]/g)].map((m) => m[1]).filter((arg) => tags.has(arg));
          assert.deepEqual(clash, [], `${locale}: ${prefix}${key}`);
        }
      }
    };
    walk(catalogs[locale] as unknown as Tree, '');
  }
});
