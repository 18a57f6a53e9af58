/**
 * Environment variables that look like one of Gatehouse's settings and are not
 * one: a setting mistyped (`SECRET_KEY`, `REDIS_URI`, `LOGLEVEL`) is otherwise
 * ignored in silence, and the server runs on the default the operator meant to
 * change. The start warns about each, with the setting it probably meant. Only
 * names are compared and reported, never values (a mistyped SECRETS_KEY holds a key).
 *
 * A name is suspect when, compared without case and underscores, it is within a
 * small edit distance of a setting's name (longer names allow more), or when it
 * starts with a prefix that only Gatehouse's settings use (`THROTTLE_`, `SMTP_`).
 * The environment also holds the shell's, the system's and the tools' variables:
 * those (PATH, HOME, NODE_*, npm_*, ...) are never suspects.
 */
import type { Log } from '../ops/log.ts';
import { SETTING_NAMES } from './env.ts';

export interface MistypedSetting {
  /** The variable as it is set. */
  name: string;
  /** The setting it probably stands for. */
  meant: string;
}

/** Read by Gatehouse outside lib/config/env.ts: `npm run db:migrate`'s shadow database. */
const READ_ELSEWHERE = ['SHADOW_DATABASE_URL'];

/**
 * Prefixes of Gatehouse's settings that other software seldom uses: a variable that starts with one
 * and is no setting was most likely meant as one (mistyped-settings.test.ts checks each is a setting's).
 */
export const SETTING_PREFIXES = [
  'THROTTLE_',
  'SMTP_',
  'SESSION_',
  'METRICS_',
  'BRAND_',
  'SIGN_UP_',
  'SECRETS_',
  'COOKIE_',
  'ADMIN_',
  'AUDIT_',
  'KEY_ROTATION_',
  'KEY_PUBLISH_',
  'ACCESS_TOKEN_',
  'REFRESH_TOKEN_',
  'SECOND_FACTOR_',
] as const;

/**
 * Other software's variables, never suspects, compared in upper case: the shell's and the system's, the
 * runtimes', package managers', supervisors' and CI's (npm_*, NODE_*, LISTEN_FDS), OpenTelemetry's
 * (lib/ops/tracing.ts validates its own), Next's, and Gatehouse's own tooling's (GATEHOUSE_*, TEST_*).
 */
const ORDINARY_NAMES = new Set([
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'PWD',
  'OLDPWD',
  'TERM',
  'LANG',
  'LANGUAGE',
  'TZ',
  'HOST',
  'HOSTNAME',
  'SHLVL',
  'MAIL',
  'TMPDIR',
  'TMP',
  'TEMP',
  'EDITOR',
  'VISUAL',
  'PAGER',
  'DISPLAY',
  'CI',
  'DEBUG',
  'COLORTERM',
  'NO_COLOR',
  'FORCE_COLOR',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'ALL_PROXY',
  'INIT_CWD',
  'CONTAINER',
  '_',
]);
const ORDINARY_PREFIXES = [
  'NODE_',
  'NPM_',
  'NVM_',
  'PNPM_',
  'YARN_',
  'COREPACK_',
  'NEXT_',
  'NEXTAUTH_',
  '__NEXT',
  'OTEL_',
  'GATEHOUSE_',
  'TEST_',
  'PRISMA_',
  'LC_',
  'XDG_',
  'SSH_',
  'GIT_',
  'DOCKER_',
  'KUBERNETES_',
  'SYSTEMD_',
  'LISTEN_',
  'JOURNAL_',
  'INVOCATION_',
  'CI_',
  'GITHUB_',
  'RUNNER_',
];

/** The form names are compared in: upper case, without underscores (LOGLEVEL, log_level and LOG_LEVEL are one). */
const squash = (name: string) => name.toUpperCase().replaceAll('_', '');

/** How far a name may be from a setting's (both squashed): one edit for short names, two, three for long ones. */
const tolerance = (setting: string) => (setting.length < 6 ? 1 : setting.length < 14 ? 2 : 3);

/** Edits (insert, delete, replace, swap two neighbours) from `a` to `b`: optimal string alignment distance. */
export function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      rows[i][j] = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) rows[i][j] = Math.min(rows[i][j], rows[i - 2][j - 2] + 1);
    }
  }
  return rows[a.length][b.length];
}

/** Kubernetes' variables for each service in the namespace (REDIS_SERVICE_HOST, SMTP_PORT_25_TCP_ADDR). */
const SERVICE_LINK = /_SERVICE_(HOST|PORT)(_|$)|_PORT_\d+_(TCP|UDP|SCTP)/;

function isOrdinary(name: string): boolean {
  const upper = name.toUpperCase();
  return ORDINARY_NAMES.has(upper) || ORDINARY_PREFIXES.some((prefix) => upper.startsWith(prefix)) || SERVICE_LINK.test(upper);
}

/** The setting nearest to `name` among `candidates`, with its distance (the first on a tie, in the schema's order). */
function nearest(name: string, candidates: readonly string[]): { setting: string; distance: number } | undefined {
  let best: { setting: string; distance: number } | undefined;
  for (const setting of candidates) {
    const distance = editDistance(squash(name), squash(setting));
    if (!best || distance < best.distance) best = { setting, distance };
  }
  return best;
}

/**
 * The setting of a family that `name` most likely stands for: the most words in common (THROTTLE_LOCK_SECONDS
 * is THROTTLE_ACCOUNT_LOCK_SECONDS, not THROTTLE_DELAY_SECONDS), then the fewest words besides, then the
 * nearest spelling.
 */
function likeliest(name: string, family: readonly string[]): string | undefined {
  const words = new Set(name.toUpperCase().split('_').filter(Boolean));
  const score = (setting: string) => {
    const theirs = setting.split('_');
    const shared = theirs.filter((word) => words.has(word)).length;
    return [-shared, theirs.length - shared, editDistance(squash(name), squash(setting))];
  };
  /** Whether score `a` ranks before `b`: compared term by term. */
  const before = (a: number[], b: number[]) => {
    const at = a.findIndex((value, i) => value !== b[i]);
    return at >= 0 && a[at] < b[at];
  };
  let best: { setting: string; score: number[] } | undefined;
  for (const setting of family) {
    const candidate = { setting, score: score(setting) };
    if (!best || before(candidate.score, best.score)) best = candidate;
  }
  return best?.setting;
}

/** The variables among `names` that look like a setting and are none, each with the one it probably meant, in `names`' order. */
export function mistypedSettings(names: Iterable<string>, settings: readonly string[] = [...SETTING_NAMES, ...READ_ELSEWHERE]): MistypedSetting[] {
  const known = new Set(settings);
  const found: MistypedSetting[] = [];
  for (const name of names) {
    if (known.has(name) || isOrdinary(name)) continue;
    const near = nearest(name, settings);
    if (near && near.distance <= tolerance(squash(near.setting))) {
      found.push({ name, meant: near.setting });
      continue;
    }
    const prefix = SETTING_PREFIXES.find((p) => name.toUpperCase().startsWith(p));
    const sameFamily = prefix
      ? likeliest(
          name,
          settings.filter((s) => s.startsWith(prefix)),
        )
      : undefined;
    if (sameFamily) found.push({ name, meant: sameFamily });
  }
  return found;
}

/** One warning line per mistyped setting in `environment` (the process's), naming the variable and the setting it probably meant. */
export function warnAboutMistypedSettings(log: Pick<Log, 'warn'>, environment: Record<string, string | undefined> = process.env): void {
  for (const { name, meant } of mistypedSettings(Object.keys(environment))) {
    log.warn({ variable: name, meant }, `${name} is not a Gatehouse setting and is ignored: did you mean ${meant}?`);
  }
}
