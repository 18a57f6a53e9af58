import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { createRequire } from 'node:module';
import { ADMIN_IMPORT_LIMIT, atMost, bodyLimitRewrites, BODY_LIMITS, largerThan, LARGEST_BODY, unproxiedRequests } from './body-limits.ts';

// Next's own path-to-regexp, with the options Next compiles rewrite sources with (lib/build-custom-route.js).
const { pathToRegexp } = createRequire(import.meta.url)('next/dist/compiled/path-to-regexp') as {
  pathToRegexp(source: string, keys: unknown[], options: { strict: boolean; sensitive: boolean; delimiter: string }): RegExp;
};

/** As Next matches a `has` value: anchored at both ends. */
const matches = (pattern: string, value: string) => new RegExp(`^${pattern}$`).test(value);

test('largerThan matches exactly the integers above the limit, leading zeros or not', () => {
  for (const limit of [0, 7, 8, 9, 10, 99, 100, 4096, 8192, 57_344, 65_536, 99_999]) {
    const pattern = largerThan(limit);
    for (let n = Math.max(0, limit - 1200); n <= limit + 1200; n++) {
      assert.equal(matches(pattern, String(n)), n > limit, `${n} against ${limit}`);
      assert.equal(matches(pattern, `00${n}`), n > limit, `00${n} against ${limit}`);
    }
    for (const n of [limit * 10, limit * 10 + 1, 104_857_600, 10 ** 15]) assert.equal(matches(pattern, String(n)), n > limit, `${n}`);
    for (const junk of ['', '-1', '1e9', ' 99999999', '0x10000', 'abc']) assert.equal(matches(pattern, junk), false, junk);
  }
});

test('atMost matches the integers up to the limit, and nothing else', () => {
  const pattern = atMost(LARGEST_BODY);
  for (const n of [0, 1, 4096, LARGEST_BODY - 1, LARGEST_BODY]) assert.ok(matches(pattern, String(n)), String(n));
  for (const n of [LARGEST_BODY + 1, LARGEST_BODY * 2, 104_857_600]) assert.ok(!matches(pattern, String(n)), String(n));
  assert.ok(!matches(pattern, ''));
});

test("proxy.ts's matcher takes exactly the bodies that no rewrite refuses (Next needs it as a literal)", () => {
  const source = readFileSync(new URL('../../proxy.ts', import.meta.url), 'utf8');
  const literal = /key: 'content-length', value: '([^']+)'/.exec(source)?.[1];
  assert.equal(literal?.replace(/\\\\/g, '\\'), atMost(LARGEST_BODY));
  assert.equal(LARGEST_BODY, Math.max(...Object.values(BODY_LIMITS)));
});

/** Where a request with a body goes: the limit its rewrite enforces, or undefined where our own readers guard it. */
function guardOf(path: string): number | undefined {
  for (const rule of bodyLimitRewrites()) {
    const key = rule.has[0].value;
    if (!key || !pathToRegexp(rule.source, [], { strict: true, sensitive: false, delimiter: '/' }).test(path)) continue;
    return Number(rule.destination.split('/').pop());
  }
  return undefined;
}

test("the rewrites guard Next's readers and leave the provider and the interaction forms to ours", () => {
  assert.equal(guardOf('/api/auth/signout'), BODY_LIMITS.nextAuth);
  assert.equal(guardOf('/api/auth/callback/gatehouse'), BODY_LIMITS.nextAuth);
  assert.equal(guardOf('/api/admin/users'), BODY_LIMITS.adminApi);
  assert.equal(guardOf('/api/admin'), BODY_LIMITS.adminApi);
  assert.equal(guardOf('/api/admin/users/import'), ADMIN_IMPORT_LIMIT, 'an import file is larger than a JSON body');
  assert.equal(guardOf('/api/admin/users/importer'), BODY_LIMITS.adminApi);
  assert.equal(guardOf('/api/admin/users/import/x'), BODY_LIMITS.adminApi);
  for (const page of ['/', '/admin', '/admin/users/new', '/account/password', '/interaction/abc', '/anything'])
    assert.equal(guardOf(page), BODY_LIMITS.portalForm, page);
  for (const ours of [
    '/oauth/token',
    '/oauth/authorize',
    '/.well-known/openid-configuration',
    '/interaction/abc/login',
    '/interaction/abc/confirm',
    '/interaction/abc/abort',
  ]) {
    assert.equal(guardOf(ours), undefined, ours);
  }
  assert.equal(guardOf('/http-error/413/8192'), undefined, 'a refusal is not refused again with another limit');
});

test('each guard refuses a chunked body (411) as well as a declared one over its limit (413)', () => {
  const rules = bodyLimitRewrites();
  for (let i = 0; i < rules.length; i += 2) {
    const [declared, chunked] = rules.slice(i, i + 2);
    assert.equal(declared.source, chunked.source);
    assert.match(declared.destination, /^\/http-error\/413\/\d+$/);
    assert.deepEqual(chunked.has, [{ type: 'header', key: 'transfer-encoding' }]);
    assert.equal(chunked.destination, '/http-error/411');
  }
});

test("the requests proxy.ts skips are exactly those next.config.js gives the no-nonce policy, on every path but the provider's", () => {
  const [chunked, large] = unproxiedRequests();
  const paths = (rule: { source: string }) => pathToRegexp(rule.source, [], { strict: true, sensitive: false, delimiter: '/' });
  for (const page of ['/', '/account', '/no-such-page', '/api/nothing', '/interaction/abc/login', '/password-reset'])
    for (const rule of [chunked, large]) assert.ok(paths(rule).test(page), `${rule.has[0].key}: ${page}`);
  for (const provider of ['/oauth/token', '/.well-known/openid-configuration'])
    for (const rule of [chunked, large]) assert.ok(!paths(rule).test(provider), provider);
  // Chunked: proxy.ts's first matcher wants neither header, its second a small Content-Length.
  assert.deepEqual(chunked.has, [{ type: 'header', key: 'transfer-encoding' }]);
  assert.deepEqual(chunked.missing, [{ type: 'header', key: 'content-length' }]);
  // Large: every Content-Length the proxy's literal (atMost) does not take, and no other.
  for (const n of [0, 1, LARGEST_BODY, LARGEST_BODY + 1, LARGEST_BODY * 10])
    assert.equal(matches(large.has[0].value!, String(n)), !matches(atMost(LARGEST_BODY), String(n)), String(n));
});
