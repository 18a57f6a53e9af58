/**
 * Gatehouse's configuration, read from the environment once and validated with
 * zod. Everything has a safe default so `npm start` works with no configuration;
 * a bad value stops the process with a message naming the variable.
 */
import { z } from 'zod';
import { SUPPORTED_LOCALES } from '../i18n/locale.ts';
import { normalizeHex } from './colour.ts';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** LOG_LEVEL: pino's level names in any case, surrounding blanks ignored, empty as unset; `silent` writes nothing. */
export const logLevelSchema = z
  .string()
  .default('info')
  .transform((v) => v.trim().toLowerCase() || 'info')
  .pipe(z.enum(LOG_LEVELS, { error: `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}` }));

const envSchema = z.object({
  /** Bare origin the provider is reached at; every URL the server prints derives from it. */
  ISSUER: z
    .url({ protocol: /^https?$/ })
    .default('http://localhost:3000')
    .transform((v) => new URL(v))
    .refine((u) => u.pathname === '/' && !u.search && !u.hash, 'ISSUER must be a bare origin such as https://id.example.com')
    .transform((u) => u.origin),
  /** Unset: an embedded SQLite file. postgresql://... switches to PostgreSQL. */
  DATABASE_URL: z
    .string()
    .default('file:./data/gatehouse.db')
    .refine((v) => /^(file:|postgres(ql)?:\/\/)/.test(v), 'DATABASE_URL must be file:<path> (SQLite) or postgresql://...'),
  /** First admin, created on first start when the database has no users. */
  ADMIN_USERNAME: z.string().min(1).max(64).default('admin'),
  ADMIN_PASSWORD: z.string().min(8).max(256).optional(),
  /** Keys used to sign the provider's cookies; comma-separated, first one signs. Generated and persisted when unset. */
  COOKIE_KEYS: z
    .string()
    .optional()
    .transform((v) =>
      v
        ? v
            .split(',')
            .map((k) => k.trim())
            .filter(Boolean)
        : undefined,
    ),
  /**
   * Keys that encrypt every server secret and private key stored in the
   * database (lib/db/keyring.ts): comma-separated, 32 random bytes each in
   * base64 or hex; the first encrypts, all decrypt (rotation). Required with
   * PostgreSQL; on SQLite a key file beside the database is created when unset.
   */
  SECRETS_KEY: z
    .string()
    .optional()
    .transform((v, ctx) => {
      const keys = (v ?? '')
        .split(',')
        .map((k) => k.trim())
        .filter(Boolean)
        .map(decodeSecretsKey);
      if (keys.some((k) => k === undefined)) {
        ctx.addIssue({ code: 'custom', message: 'each key must be 32 random bytes in base64 or hex (e.g. `openssl rand -base64 32`)' });
        return z.NEVER;
      }
      return keys as Buffer[];
    }),
  /** Access token lifetime in seconds. */
  ACCESS_TOKEN_TTL: z.coerce.number().int().min(60).max(86_400).default(3600),
  /** Refresh token lifetime in seconds. */
  REFRESH_TOKEN_TTL: z.coerce
    .number()
    .int()
    .min(300)
    .max(31_536_000)
    .default(14 * 86_400),
  /** Signed-in session lifetime in seconds. */
  SESSION_TTL: z.coerce
    .number()
    .int()
    .min(300)
    .max(31_536_000)
    .default(14 * 86_400),
  /**
   * Idle limit, in seconds, of a session signed in without "Keep me signed in":
   * it ends when not used at the authorization endpoint for this long (and with
   * the browser, its cookie having no expiry). 60 minutes by default.
   */
  SESSION_IDLE_TTL: z.coerce.number().int().min(60).max(86_400).default(3600),
  PORT: z.coerce.number().int().min(1).max(65_535).default(3000),
  /**
   * How many reverse proxies in front of Gatehouse append the client's address to
   * X-Forwarded-For (`true` = 1). Off by default: without a proxy that header is
   * whatever the client wrote, so the audit log records the TCP peer instead.
   */
  TRUST_PROXY: z
    .string()
    .trim()
    .toLowerCase()
    .default('false')
    .refine((v) => /^(true|false|on|off|yes|no|\d{1,2})?$/.test(v), 'TRUST_PROXY must be true, false or the number of proxies (0-10)')
    .transform((v) => (['true', 'on', 'yes'].includes(v) ? 1 : /^\d+$/.test(v) ? Number(v) : 0))
    .refine((n) => n <= 10, 'TRUST_PROXY must be true, false or the number of proxies (0-10)'),
  /**
   * How many days audit entries are kept: older ones are deleted at start and
   * every hour (lib/audit/retention.ts). 0, the default, keeps them all.
   */
  AUDIT_RETENTION_DAYS: z.coerce
    .number({ error: 'AUDIT_RETENTION_DAYS must be a whole number of days (0 keeps entries forever)' })
    .int()
    .min(0)
    .max(36_500)
    .default(0),
  /**
   * Automatic signing key rotation (lib/keys/signing-keys.ts): each
   * algorithm's key signs this many days, then the next one takes over. 0 turns
   * it off (an admin still rotates with `gatehouse keys rotate`).
   */
  KEY_ROTATION_DAYS: z.coerce
    .number({ error: 'KEY_ROTATION_DAYS must be a whole number of days (0 turns automatic rotation off)' })
    .int()
    .min(0)
    .max(3650)
    .default(90),
  /**
   * How many hours a new signing key is published in the JWKS before it signs,
   * so relying parties that cache the JWKS know it before they meet it.
   */
  KEY_PUBLISH_AHEAD_HOURS: z.coerce.number({ error: 'KEY_PUBLISH_AHEAD_HOURS must be a whole number of hours' }).int().min(1).max(720).default(24),
  /**
   * Where the throttling counters live (lib/platform/throttle.ts). Unset: in the
   * database, which every instance already shares. redis:// or rediss://: in Redis.
   */
  REDIS_URL: z
    .string()
    .trim()
    .optional()
    .transform((v) => v || undefined)
    .refine((v) => v === undefined || /^rediss?:\/\/./.test(v), 'REDIS_URL must be redis://... or rediss://...'),
  // Throttling of password guessing (lib/platform/throttle.ts says how they combine;
  // throttleSettings there checks that they are in order).
  /**
   * Failed password checks a day that cost nothing, per account (or unknown username) and source address, and
   * per browser that signed in to the account before (its device cookie): a person who mistypes is never slowed.
   */
  THROTTLE_ACCOUNT_FREE_FAILURES: throttleCount(5),
  /** From this many failures in a day on, each failure locks that (account, source) or that browser out of the account for THROTTLE_ACCOUNT_LOCK_SECONDS. */
  THROTTLE_ACCOUNT_LOCK_AFTER: throttleCount(10),
  THROTTLE_ACCOUNT_LOCK_SECONDS: z.coerce.number().int().min(60).max(86_400).default(900),
  /** Failures a day per (account, source) or browser after which it stays locked out until that day (from its first failure) ends. */
  THROTTLE_ACCOUNT_DAILY_CAP: throttleCount(30),
  /**
   * Failed password checks a day for one account from browsers that never signed in to it, over every source
   * address, after which new browsers are locked out of it until that day ends or the owner uses the unlock link
   * mailed to them. Browsers that signed in before, and passkeys, still work. Far above what a person mistyping
   * reaches: it stops a guessing run spread over many addresses.
   */
  THROTTLE_NEW_BROWSER_LOCK_AFTER: throttleCount(100),
  /** Failed password checks per source address (IPv6: per /64) an hour, over all accounts, that cost nothing. */
  THROTTLE_SOURCE_FREE_FAILURES: throttleCount(30),
  /** Password checks per source address an hour after which it is refused until that hour ends. */
  THROTTLE_SOURCE_HOURLY_CAP: throttleCount(300),
  /**
   * Wrong client secrets per source address an hour, over every client, answered 401 before the address waits
   * (429). A right secret is never refused: the throttle only bounds what a guesser's address can cost.
   */
  THROTTLE_CLIENT_FREE_FAILURES: throttleCount(10),
  /** Wrong client secrets per source address an hour after which that address's wrong secrets get 429 until the hour ends. */
  THROTTLE_CLIENT_HOURLY_CAP: throttleCount(100),
  /** Wrong client secrets an hour over every source after which every wrong secret gets 429 until the hour ends (right ones still pass). */
  THROTTLE_CLIENT_GLOBAL_HOURLY_CAP: throttleCount(10_000),
  /** The first wait after the free failures, in seconds; each further failure doubles it, up to THROTTLE_MAX_DELAY_SECONDS. */
  THROTTLE_DELAY_SECONDS: z.coerce.number().int().min(1).max(3600).default(1),
  THROTTLE_MAX_DELAY_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  /**
   * Outgoing mail (lib/mail/mailer.ts): smtp://user:password@host:587 (STARTTLS when
   * offered) or smtps://...:465. Unset: mail goes to the server log outside production,
   * nowhere in production.
   */
  SMTP_URL: z
    .string()
    .optional()
    .refine(
      (v) => v === undefined || /^smtps?:\/\/[^/]+/.test(v),
      'SMTP_URL must be smtp://host:port or smtps://host:port, with user:password@ if the server asks',
    ),
  /**
   * Who must have a second factor (lib/surfaces/portal/access.ts): `admins` (the default: the
   * portal is the keys to everything), `everyone` (every /account page asks for it first), or `off`.
   */
  SECOND_FACTOR_REQUIRED: z.enum(['admins', 'everyone', 'off']).default('admins'),
  /** The From of every mail, e.g. `Acme ID <id@acme.example>`; default "BRAND_NAME" <no-reply@the issuer's host>. */
  MAIL_FROM: z.string().min(3).max(200).optional(),
  /**
   * Self-service sign-up (lib/sign-in/sign-up.ts): `off` by default, since who may
   * have an account is the operator's decision. `on` offers "Create an account" on the
   * sign-in page, but only where mail can be sent (the account signs in once its
   * address is confirmed): in production without SMTP_URL it stays unoffered, and the
   * start-up log says so.
   */
  SIGN_UP: z.enum(['off', 'on']).default('off'),
  /**
   * With SIGN_UP=on, the email domains sign-up accepts, comma-separated (`example.com,example.org`),
   * compared without case and exactly (a subdomain is another domain). Empty: any.
   */
  SIGN_UP_EMAIL_DOMAINS: z
    .string()
    .optional()
    .transform((v) =>
      (v ?? '')
        .split(',')
        .map((d) => d.trim().toLowerCase().replace(/^@/, ''))
        .filter(Boolean),
    )
    .refine(
      (domains) => domains.every((d) => /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/.test(d)),
      'SIGN_UP_EMAIL_DOMAINS must be domain names separated by commas, such as example.com,example.org',
    ),
  /** Sign-ups per source address (IPv6: per /64) an hour; past it the address waits until the hour ends. */
  THROTTLE_SIGN_UP_HOURLY_CAP: throttleCount(10),
  /**
   * Where Prometheus scrapes /metrics (lib/ops/metrics-server.ts): a port of its
   * own, apart from the issuer's, so the figures never reach the public side of a
   * load balancer. Unset, no metrics server runs: several instances on one host
   * would otherwise fight over one default port. 0 takes any free port (tests).
   */
  METRICS_PORT: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(0).max(65_535).optional()),
  /** The interface the metrics server listens on: loopback unless the scraper is on another host. */
  METRICS_HOST: z.string().trim().min(1).default('127.0.0.1'),
  /**
   * Set: GET /metrics on the issuer's own port too, for `Authorization: Bearer <token>` only
   * (lib/ops/metrics-server.ts), for a scraper that reaches nothing else. RFC 6750's token
   * characters, long enough that guessing it is hopeless (openssl rand -hex 32).
   */
  METRICS_TOKEN: z
    .string()
    .trim()
    .optional()
    .transform((v) => v || undefined)
    .refine(
      (v) => v === undefined || /^[A-Za-z0-9\-._~+/]{32,512}=*$/.test(v),
      'METRICS_TOKEN must be at least 32 characters of letters, digits and -._~+/ (e.g. openssl rand -hex 32)',
    ),
  /**
   * The language of the pages and mails when neither the authorization request's ui_locales nor the
   * browser's Accept-Language names a supported one (lib/i18n/locale.ts), and of the mails an admin sends.
   */
  DEFAULT_LOCALE: z.enum(SUPPORTED_LOCALES, { error: `DEFAULT_LOCALE must be one of ${SUPPORTED_LOCALES.join(', ')}` }).default('en'),
  // The operator's brand (lib/config/brand.ts): every page, the provider's own pages and every mail.
  /** The product's name people see: page titles, the sign-in card, the portal's header, mails. */
  BRAND_NAME: z
    .string()
    .trim()
    .min(1, 'BRAND_NAME must not be empty')
    .refine((v) => !/\p{Cc}/u.test(v), 'BRAND_NAME must be one line of text')
    .max(60, 'BRAND_NAME must be at most 60 characters')
    .default('Gatehouse'),
  /**
   * The accent colour, #rgb or #rrggbb: primary buttons, links, focus rings. Text on it and the shades
   * used as text are derived so they reach WCAG AA contrast (lib/config/brand.ts).
   */
  BRAND_ACCENT_COLOR: z
    .string()
    .default('#4f46e5')
    .transform((v, ctx) => {
      const hex = normalizeHex(v);
      if (!hex) {
        ctx.addIssue({ code: 'custom', message: `BRAND_ACCENT_COLOR must be a hex colour such as #4f46e5 (got "${v.slice(0, 40)}")` });
        return z.NEVER;
      }
      return hex;
    }),
  /**
   * The logo: an https:// URL (the pages' Content-Security-Policy then allows images from that
   * origin only) or a path this server serves from public/, such as /logo.svg. Unset: the gate mark.
   */
  BRAND_LOGO_URL: z
    .string()
    .trim()
    .optional()
    .transform((v) => v || undefined)
    .refine((v) => v === undefined || isLogoPath(v) || isHttpsUrl(v), 'BRAND_LOGO_URL must be an https:// URL or a path on this server such as /logo.svg'),
  /**
   * A logo file on this server's disk (SVG, PNG, WebP or JPEG, at most 256 kB), served at /brand/logo;
   * checked at start (lib/config/brand-logo.ts). Instead of BRAND_LOGO_URL, not with it.
   */
  BRAND_LOGO_FILE: z
    .string()
    .trim()
    .optional()
    .transform((v) => v || undefined)
    .refine((v) => v === undefined || /\.(svg|png|webp|jpe?g)$/i.test(v), 'BRAND_LOGO_FILE must name an .svg, .png, .webp or .jpg file'),
  /** The least severe log line written (lib/ops/log.ts); `debug` adds the health probes' requests. */
  LOG_LEVEL: logLevelSchema,
});

/** A path from the site's root with no `..`, `//` or query: a file of public/ (or a page) on this server. */
const isLogoPath = (v: string) => /^\/[A-Za-z0-9._~/-]*$/.test(v) && !v.startsWith('//') && !v.split('/').includes('..');

function isHttpsUrl(v: string): boolean {
  try {
    const url = new URL(v);
    return url.protocol === 'https:' && !url.username && !url.password;
  } catch {
    return false;
  }
}

/** Every setting's name, for the start's warning about names that look like one (lib/config/mistyped-settings.ts). */
export const SETTING_NAMES: readonly string[] = Object.keys(envSchema.shape);

const configSchema = envSchema.refine((c) => !(c.BRAND_LOGO_URL && c.BRAND_LOGO_FILE), {
  path: ['BRAND_LOGO_FILE'],
  message: 'set BRAND_LOGO_URL or BRAND_LOGO_FILE, not both',
});

/** A count of attempts for the throttle settings: a whole number from 1 to 100,000. */
function throttleCount(fallback: number) {
  return z.coerce.number().int().min(1).max(100_000).default(fallback);
}

/** A 256-bit key written as 64 hex digits or as base64 / base64url; undefined for anything else. */
export function decodeSecretsKey(text: string): Buffer | undefined {
  const key = /^[0-9a-f]{64}$/i.test(text) ? Buffer.from(text, 'hex') : /^[A-Za-z0-9+/_-]{43}=?$/.test(text) ? Buffer.from(text, 'base64') : undefined;
  return key?.length === 32 ? key : undefined;
}

export type Env = z.infer<typeof configSchema>;

let cached: Env | undefined;

/** Validates an environment (process.env, or a test's); throws an Error listing every invalid variable. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const parsed = configSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}

/** Parses process.env once. */
export function env(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/** Which database DATABASE_URL selects. */
export function databaseKind(url = env().DATABASE_URL): 'sqlite' | 'postgresql' {
  return url.startsWith('file:') ? 'sqlite' : 'postgresql';
}

/** The SQLite file path of a file: URL, resolved against the working directory. */
export function sqlitePath(url = env().DATABASE_URL): string {
  return url.slice('file:'.length);
}
