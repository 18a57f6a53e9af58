// Mistyped settings are named at start with the setting they probably meant; other software's variables never are.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { memoryLog } from '../ops/log.ts';
import { SETTING_NAMES } from './env.ts';
import { editDistance, mistypedSettings, SETTING_PREFIXES, warnAboutMistypedSettings } from './mistyped-settings.ts';

test('the near misses an operator made: a letter off, an underscore missing or added, another case', () => {
  assert.deepEqual(
    mistypedSettings(['SECRET_KEY', 'REDIS_URI', 'METRIC_TOKEN', 'LOGLEVEL', 'log_level', 'SIGNUP', 'ISUER', 'DATABASE__URL', 'ACESS_TOKEN_TTL']),
    [
      { name: 'SECRET_KEY', meant: 'SECRETS_KEY' },
      { name: 'REDIS_URI', meant: 'REDIS_URL' },
      { name: 'METRIC_TOKEN', meant: 'METRICS_TOKEN' },
      { name: 'LOGLEVEL', meant: 'LOG_LEVEL' },
      { name: 'log_level', meant: 'LOG_LEVEL' },
      { name: 'SIGNUP', meant: 'SIGN_UP' },
      { name: 'ISUER', meant: 'ISSUER' },
      { name: 'DATABASE__URL', meant: 'DATABASE_URL' },
      { name: 'ACESS_TOKEN_TTL', meant: 'ACCESS_TOKEN_TTL' },
    ],
  );
});

test("a setting's prefix with a name that is no setting: the nearest setting of that family", () => {
  assert.deepEqual(mistypedSettings(['SMTP_HOST', 'THROTTLE_LOCK_SECONDS', 'SESSION_LIFETIME', 'BRAND_COLOR']), [
    { name: 'SMTP_HOST', meant: 'SMTP_URL' },
    { name: 'THROTTLE_LOCK_SECONDS', meant: 'THROTTLE_ACCOUNT_LOCK_SECONDS' },
    { name: 'SESSION_LIFETIME', meant: 'SESSION_TTL' },
    { name: 'BRAND_COLOR', meant: 'BRAND_ACCENT_COLOR' },
  ]);
});

test('every setting itself, and the shell, system, runtime, npm, supervisor and Kubernetes variables, are never suspects', () => {
  const ordinary = [
    ...['PATH', 'HOME', 'USER', 'SHELL', 'PWD', 'TERM', 'LANG', 'TZ', 'HOSTNAME', 'SHLVL', 'MAIL', 'TMPDIR', 'CI', 'DEBUG', 'HTTPS_PROXY', 'no_proxy'],
    ...['NODE_ENV', 'NODE_OPTIONS', 'NODE_EXTRA_CA_CERTS', 'npm_lifecycle_event', 'npm_config_cache', 'INIT_CWD', 'NEXT_TELEMETRY_DISABLED'],
    ...['OTEL_EXPORTER_OTLP_ENDPOINT', 'GATEHOUSE_DIST_DIR', 'TEST_DATABASE_URL', 'LC_ALL', 'XDG_RUNTIME_DIR', 'INVOCATION_ID', 'LISTEN_FDS'],
    ...['REDIS_SERVICE_HOST', 'REDIS_SERVICE_PORT', 'SMTP_PORT_25_TCP_ADDR', 'REDIS_PORT', 'POSTGRES_PASSWORD', 'SHADOW_DATABASE_URL', '_'],
  ];
  assert.deepEqual(mistypedSettings([...SETTING_NAMES, ...ordinary]), []);
});

test('each prefix is one of the settings', () => {
  for (const prefix of SETTING_PREFIXES) {
    assert.ok(
      SETTING_NAMES.some((name) => name.startsWith(prefix)),
      prefix,
    );
  }
});

test('edit distance: inserts, deletes, replacements and swapped neighbours cost one each', () => {
  assert.equal(editDistance('SECRETSKEY', 'SECRETSKEY'), 0);
  assert.equal(editDistance('SECRETKEY', 'SECRETSKEY'), 1);
  assert.equal(editDistance('REDISURI', 'REDISURL'), 1);
  assert.equal(editDistance('SECRETSKYE', 'SECRETSKEY'), 1);
  assert.equal(editDistance('', 'PORT'), 4);
  assert.equal(editDistance('HOME', 'PORT'), 3);
});

test('one warning line per variable, with its name and the setting meant, and never its value', () => {
  const { log, lines } = memoryLog();
  warnAboutMistypedSettings(log, { SECRET_KEY: 'c2VjcmV0LXZhbHVlLW5ldmVyLWxvZ2dlZA', PATH: '/bin', REDIS_URI: 'redis://:pw@cache:6379' });
  assert.deepEqual(
    lines.map(({ level, variable, meant, msg }) => ({ level, variable, meant, msg })),
    [
      { level: 40, variable: 'SECRET_KEY', meant: 'SECRETS_KEY', msg: 'SECRET_KEY is not a Gatehouse setting and is ignored: did you mean SECRETS_KEY?' },
      { level: 40, variable: 'REDIS_URI', meant: 'REDIS_URL', msg: 'REDIS_URI is not a Gatehouse setting and is ignored: did you mean REDIS_URL?' },
    ],
  );
  assert.doesNotMatch(JSON.stringify(lines), /c2VjcmV0|redis:\/\//);
});
