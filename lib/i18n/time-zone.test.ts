// The time zone cookie: only Intl's own zones pass, under Intl's names; the script that sets it is self-contained.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TIME_ZONE_COOKIE, timeZoneScript, validTimeZone } from './time-zone.ts';

test('Intl’s time zones pass, aliases under Intl’s name, anything else not', () => {
  assert.equal(validTimeZone('Europe/Berlin'), 'Europe/Berlin');
  assert.equal(validTimeZone('America/Sao_Paulo'), 'America/Sao_Paulo');
  assert.equal(validTimeZone('UTC'), 'UTC');
  assert.equal(validTimeZone('Etc/UTC'), 'UTC');
  const kolkata = validTimeZone('Asia/Kolkata');
  assert.ok(kolkata === 'Asia/Kolkata' || kolkata === 'Asia/Calcutta', String(kolkata));
  for (const bad of [undefined, '', 'Mars/Olympus_Mons', '+05:00', 'Europe/Berlin; path=/', 'a'.repeat(65), '<script>', '../../etc/passwd']) {
    assert.equal(validTimeZone(bad), undefined, String(bad));
  }
});

test('the script sets the cookie from Intl, and only the cookie', () => {
  const script = timeZoneScript(true);
  assert.ok(script.includes(`'${TIME_ZONE_COOKIE}='+encodeURIComponent(z)`));
  assert.ok(script.includes(';samesite=lax;secure'));
  assert.ok(!timeZoneScript(false).includes('secure'));
  assert.doesNotMatch(script, /fetch|XMLHttpRequest|src=|location\s*=|reload/, 'no request, no navigation');
  // It runs: in a scope with a stand-in document and Intl, it writes the cookie once.
  const document = { cookie: '' };
  const run = new Function('document', 'Intl', script);
  // biome-ignore lint/correctness/noComponentHookFactories: a stand-in for Intl.DateTimeFormat, not a React component
  const intl = { DateTimeFormat: () => ({ resolvedOptions: () => ({ timeZone: 'Europe/Berlin' }) }) };
  run(document, intl);
  assert.equal(document.cookie, `${TIME_ZONE_COOKIE}=Europe%2FBerlin;path=/;max-age=31536000;samesite=lax;secure`);
});
