/**
 * Gatehouse's configuration, read from the environment once and validated with
 * zod. Everything has a safe default so `npm start` works with no configuration;
 * a bad value stops the process with a message naming the variable.
 */
import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { issueMessages } from '../platform/errors.ts';
import { SUPPORTED_LOCALES } from '../i18n/locale.ts';
import { normalizeHex } from './colour.ts';
import { WORKERS_RULE, workerCount } from './workers.mjs';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** LOG_LEVEL: pino's level names in any case, surrounding blanks ignored, empty as unset; `silent` writes nothing. */
export const logLevelSchema = z
  .string()
  .default('info')
  .transform((v) => v.trim().toLowerCase() || 'info')
  .pipe(z.enum(LOG_LEVELS, { error: `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}` }));

const envSchema = z.object({
  /**
   * The bare origin clients reach Gatehouse at, such as `https://id.example.com`. Every URL Gatehouse
   * prints derives from it; `Host` and `X-Forwarded-*` headers are ignored. Use `https://` in production.
   * Unset, it is `http://localhost:PORT`, so a first `PORT=4000 npm start` serves and signs in on the
   * port it listens on (the start says so in one line).
   * @default `http://localhost:PORT`
   */
  ISSUER: z
    .url({ protocol: /^https?$/ })
    .transform((v) => new URL(v))
    .refine((u) => u.pathname === '/' && !u.search && !u.hash, 'ISSUER must be a bare origin such as https://id.example.com')
    .transform((u) => u.origin)
    .optional(),
  /**
   * `file:<path>` for SQLite (no server needed), `postgresql://user:pass@host:5432/db[?schema=name]` for
   * PostgreSQL.
   */
  DATABASE_URL: z
    .string()
    .default('file:./data/gatehouse.db')
    .refine((v) => /^(file:|postgres(ql)?:\/\/)/.test(v), 'DATABASE_URL must be file:<path> (SQLite) or postgresql://...'),
  /**
   * The admin created on the first start (an empty database).
   */
  ADMIN_USERNAME: z.string().min(1).max(64).default('admin'),
  /**
   * That admin's password (8 to 256 characters).
   * @default generated, printed once
   */
  ADMIN_PASSWORD: z.string().min(8).max(256).optional(),
  /**
   * Comma-separated keys signing the provider's cookies; the first signs, all verify. Setting it for the
   * first time signs everyone out: see [Rotating COOKIE_KEYS](operations.md#rotating-cookie_keys).
   * @default generated, stored in the database
   */
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
   * Comma-separated keys, 32 random bytes each in base64 or hex (`openssl rand -base64 32`), that encrypt
   * every server secret and private key stored in the database; the first encrypts, all decrypt (rotation).
   * See [Secrets and backups](operations.md#secrets-and-backups) and
   * [Rotating SECRETS_KEY](operations.md#rotating-secrets_key).
   * @default SQLite: a key file beside the database; PostgreSQL: **required**
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
  /**
   * Access token lifetime, seconds (60 to 86400).
   */
  ACCESS_TOKEN_TTL: z.coerce.number().int().min(60).max(86_400).default(3600),
  /**
   * Refresh token and grant lifetime, seconds (300 to 31536000).
   * @default (14 days)
   */
  REFRESH_TOKEN_TTL: z.coerce
    .number()
    .int()
    .min(300)
    .max(31_536_000)
    .default(14 * 86_400),
  /**
   * Sign-in session lifetime, seconds, for a sign-in with *Keep me signed in* ticked (pushed back at
   * every use).
   * @default (14 days)
   */
  SESSION_TTL: z.coerce
    .number()
    .int()
    .min(300)
    .max(31_536_000)
    .default(14 * 86_400),
  /**
   * A sign-in without *Keep me signed in*: its session cookie has no expiry (it ends with the browser),
   * and the session ends when not used at the authorization endpoint for this many seconds (60 to 86400).
   * The portal session behind `/account` and `/admin` ends with it.
   * @default (60 minutes)
   */
  SESSION_IDLE_TTL: z.coerce.number().int().min(60).max(86_400).default(3600),
  /**
   * Days a browser may skip the second step after the person ticks *Don't ask for a second step on this device*
   * on the second step, with a code or a passkey (0 to 365; 0: the box is not offered). Such a sign-in is a password-only one (acr
   * `urn:gatehouse:acr:password`, amr `pwd`): it never satisfies a client that requires a second factor, `acr_values`
   * asking for one, `max_age` or `prompt=login`. A password change or a reset of the person's second factors
   * ends every trust; the person sees and removes their trusted devices in `/account`. See
   * [Trusted devices](features.md#trusted-devices).
   * @default 0 (off)
   */
  TRUSTED_DEVICE_DAYS: z.coerce.number().int().min(0).max(365).default(0),
  /**
   * `on`: a browser remembers the accounts signed in on it (a signed cookie of their ids, at most five), and the
   * sign-in page lists them above the form to pick one (its username filled in; the password or passkey is still
   * asked) or remove one; signing out leaves the list. `off` by default: the sign-in page shows no one's name until
   * the operator chooses to. See [Signing in](features.md#signing-in).
   */
  ACCOUNT_CHOOSER: z.enum(['off', 'on']).default('off'),
  /**
   * The port `npm start` listens on (`node scripts/server.mjs -p PORT -H HOST` also takes it as a flag,
   * which wins).
   */
  PORT: z.coerce.number().int().min(1).max(65_535).default(3000),
  /**
   * How many processes `npm start` serves from, each a whole server (the pages and the provider) on the
   * same port, sharing the database: `auto`, one per core (`os.availableParallelism()`), or a number (1 to
   * 256). With more than one, a primary process forks them, replaces one that dies and serves `METRICS_PORT`
   * with every worker's figures summed. `1` is one process and no primary, for a process manager or an
   * orchestrator that already runs one instance per core. Each worker holds its own memory and, on
   * PostgreSQL, its own pools. See [Workers](deploying.md#workers).
   * @default `auto` (one per core)
   */
  WORKERS: z
    .string()
    .optional()
    .transform((v, ctx) => {
      const count = workerCount(v, availableParallelism());
      if (count === undefined) {
        ctx.addIssue({ code: 'custom', message: WORKERS_RULE });
        return z.NEVER;
      }
      return count;
    }),
  /**
   * How many reverse proxies in front of Gatehouse append the client's address to `X-Forwarded-For`
   * (`true` = 1, up to 10). Off, the audit log and the throttle use the TCP peer address and ignore
   * `X-Forwarded-For`, which a client can write itself; set it only when every request passes through
   * those proxies.
   * @default `false`
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
   * Audit entries older than this many days are deleted at start and every hour. Set it to what your
   * policy requires (e.g. `365`); the log otherwise grows for ever.
   * @default (keep forever)
   */
  AUDIT_RETENTION_DAYS: z.coerce
    .number({ error: 'AUDIT_RETENTION_DAYS must be a whole number of days (0 keeps entries forever)' })
    .int()
    .min(0)
    .max(36_500)
    .default(0),
  /**
   * Each algorithm's signing key signs this many days, then the next one takes over (published
   * `KEY_PUBLISH_AHEAD_HOURS` before). `0` turns automatic rotation off; `gatehouse keys rotate` still
   * works. See [Signing keys](operations.md#signing-keys).
   */
  KEY_ROTATION_DAYS: z.coerce
    .number({ error: 'KEY_ROTATION_DAYS must be a whole number of days (0 turns automatic rotation off)' })
    .int()
    .min(0)
    .max(3650)
    .default(90),
  /**
   * How long a new signing key is in the JWKS before it signs, so relying parties that cache the JWKS
   * know it before they meet it (1 to 720).
   */
  KEY_PUBLISH_AHEAD_HOURS: z.coerce.number({ error: 'KEY_PUBLISH_AHEAD_HOURS must be a whole number of hours' }).int().min(1).max(720).default(24),
  /**
   * `redis://…` or `rediss://…` (one Redis, not Redis Cluster): the provider's short-lived artifacts
   * (authorization codes, access tokens, sign-ins in progress, replay detection) and the throttling
   * counters live in Redis instead of the database. Every instance, and the CLI, must be given the same
   * one. While Redis is lost, refresh and client-credentials grants go on and sign-ins fail: see
   * [Scale-out](deploying.md#scale-out) and [When Redis is lost](deploying.md#when-redis-is-lost).
   * @default unset (everything in the database)
   */
  REDIS_URL: z
    .string()
    .trim()
    .optional()
    .transform((v) => v || undefined)
    .refine((v) => v === undefined || /^rediss?:\/\/./.test(v), 'REDIS_URL must be redis://... or rediss://...'),
  // Throttling of password and client-secret guessing: the throttle's settings check that they are in order.
  /**
   * Wrong passwords a day per account (or unknown username) and source address, and per browser that
   * signed in to the account before (its device cookie), that cost nothing, so a person who mistypes is
   * never slowed. Each further one makes that address (or browser) wait `THROTTLE_DELAY_SECONDS`,
   * doubling. An unknown username counts exactly like an account. See [Throttling](features.md#throttling).
   */
  THROTTLE_ACCOUNT_FREE_FAILURES: throttleCount(5),
  /**
   * From this many wrong passwords in a day on, each one locks that address (or browser) out of the
   * account for `THROTTLE_ACCOUNT_LOCK_SECONDS`.
   */
  THROTTLE_ACCOUNT_LOCK_AFTER: throttleCount(10),
  /**
   * How long such a lock lasts, seconds (60 to 86400).
   * @default (15 minutes)
   */
  THROTTLE_ACCOUNT_LOCK_SECONDS: z.coerce.number().int().min(60).max(86_400).default(900),
  /**
   * Password checks a day per account and address (or browser); past it that address stays locked out
   * until 24 hours after its first failure.
   */
  THROTTLE_ACCOUNT_DAILY_CAP: throttleCount(30),
  /**
   * Wrong passwords a day for one account from browsers that never signed in to it, over every source
   * address; the last one locks every new browser out until 24 hours after the first, mails the owner an
   * unlock link, and is the lock admins see and can lift. Browsers that signed in before, and passkeys,
   * still work. Far above what a person mistyping reaches: it stops a guessing run spread over many
   * addresses. Must exceed `THROTTLE_ACCOUNT_DAILY_CAP`.
   */
  THROTTLE_NEW_BROWSER_LOCK_AFTER: throttleCount(100),
  /**
   * Wrong passwords per source address an hour (IPv6: per /64), over all accounts, before that address
   * waits too (credential stuffing).
   */
  THROTTLE_SOURCE_FREE_FAILURES: throttleCount(30),
  /**
   * Password checks per source address an hour; past it the address is refused until the hour ends.
   */
  THROTTLE_SOURCE_HOURLY_CAP: throttleCount(300),
  /**
   * Wrong client secrets per source address an hour, over every client, answered `401` at `/oauth/token`,
   * `/oauth/introspect` and `/oauth/revoke` before that address waits (`429`). A right secret is never
   * refused: the throttle only bounds what a guesser's address can cost.
   */
  THROTTLE_CLIENT_FREE_FAILURES: throttleCount(10),
  /**
   * Wrong client secrets per source address an hour; past it that address's wrong secrets get `429`
   * until the hour ends.
   */
  THROTTLE_CLIENT_HOURLY_CAP: throttleCount(100),
  /**
   * Wrong client secrets an hour over every address; past it every wrong secret gets `429` until the
   * hour ends (right ones still pass).
   */
  THROTTLE_CLIENT_GLOBAL_HOURLY_CAP: throttleCount(10_000),
  /**
   * The first wait after the free failures, seconds; each further failure doubles it, up to
   * `THROTTLE_MAX_DELAY_SECONDS`.
   */
  THROTTLE_DELAY_SECONDS: z.coerce.number().int().min(1).max(3600).default(1),
  /**
   * The longest such wait, seconds.
   */
  THROTTLE_MAX_DELAY_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  /**
   * Outgoing mail: `smtp://user:password@host:587` (STARTTLS when the server offers it) or
   * `smtps://user:password@host:465`. Unset, mail is written to the server log outside production and
   * not sent at all in production (`npm start`): see [Forgotten passwords](features.md#forgotten-passwords).
   * The start-up log says where mail goes, without credentials.
   */
  SMTP_URL: z
    .string()
    .optional()
    .refine(
      (v) => v === undefined || /^smtps?:\/\/[^/]+/.test(v),
      'SMTP_URL must be smtp://host:port or smtps://host:port, with user:password@ if the server asks',
    ),
  /**
   * Who must use two-step verification: `admins` (the portal is the keys to everything: an admin
   * without an authenticator app or passkey is sent to set one up before any admin page or admin API call
   * with the portal session), `everyone` (every `/account` page waits for it too), or `off`. See
   * [Two-step verification](features.md#two-step-verification).
   */
  SECOND_FACTOR_REQUIRED: z.enum(['admins', 'everyone', 'off']).default('admins'),
  /**
   * The From of every mail, e.g. `Acme ID <id@acme.example>`. Where mail goes is shown under
   * **Admin portal → System**.
   * @default `"BRAND_NAME" <no-reply@ISSUER's host>`
   */
  MAIL_FROM: z.string().min(3).max(200).optional(),
  /**
   * `on` offers **Create an account** on the sign-in page; `off` by default, since who may have an
   * account is the operator's decision. It needs mail (the account signs in once its address is
   * confirmed): in production without `SMTP_URL` it stays unoffered, and the start-up log says so. See
   * [Sign-up](features.md#sign-up).
   */
  SIGN_UP: z.enum(['off', 'on']).default('off'),
  /**
   * The fewest characters a password a person chooses may have (sign-up, password reset, an invitation,
   * `/account`), 8 to 64. Whatever the length, a password among the most common ones (the list shipped
   * with zxcvbn-ts) is refused; there are no rules about which kinds of characters it holds (NIST SP
   * 800-63B §5.1.1.2). A password an admin sets or Gatehouse generates needs at least 8.
   */
  PASSWORD_MIN_LENGTH: z.coerce.number().int().min(8).max(64).default(8),
  /**
   * With `SIGN_UP=on`, the email domains sign-up accepts, comma-separated (`example.com,example.org`),
   * compared without case and exactly (a subdomain is another domain).
   * @default empty (any)
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
  /**
   * `on` offers **Email me a sign-in code** on the sign-in page: a 6-digit code, mailed to the verified
   * address of the account named, signs in without the password (one factor, amr `otp`; a second step
   * the account has, the policy or the client requires is still asked). `off` by default: a mailbox then
   * becomes a way in, which is the operator's decision. Needs mail. See
   * [Email sign-in codes](features.md#email-sign-in-codes).
   */
  EMAIL_SIGN_IN_CODES: z.enum(['off', 'on']).default('off'),
  /**
   * `on` (the default) lets a person delete their own account on /account, after their password again. `off`
   * leaves deleting to admins (the portal, `gatehouse user delete`, the admin API): /account shows no form, and a
   * deletion posted anyway is refused. See [Your account](features.md#your-account).
   */
  ACCOUNT_SELF_DELETE: z.enum(['off', 'on']).default('on'),
  /**
   * `on` adds the `groups` and `roles` scopes and claims: a client allowed the scope and asking for it gets
   * the person's groups, or roles (directly or through their groups), by name, in the ID token and at
   * userinfo; discovery lists both in `scopes_supported` and `claims_supported`. `off` by default: what
   * apps see of a person stays as it was until the operator chooses. See [Authorization](authorization.md).
   */
  GROUPS_ROLES_CLAIMS: z.enum(['off', 'on']).default('off'),
  /**
   * `on`: OpenID Connect Back-Channel Logout 1.0. Clients with a `backchannel_logout_uri` get a signed
   * logout token whenever a session they signed in through ends: the person signs out, ends their other
   * sessions in /account, or an admin ends their sessions, disables them or sets their password. Tokens
   * wait in the database and are retried with doubling waits, so a restart or a client that is down loses
   * none; each outcome is in the audit log. ID tokens carry `sid`, and discovery lists
   * `backchannel_logout_supported`. See [Back-channel logout](backchannel-logout.md).
   */
  BACKCHANNEL_LOGOUT: z.enum(['off', 'on']).default('off'),
  /**
   * `on` serves SCIM 2.0 (RFC 7643, RFC 7644) at `/scim/v2`: a provisioning client (an HR system, Okta, Entra ID)
   * creates, changes, deactivates and deletes people and groups with a token an admin issued to it (portal,
   * CLI, admin API). `off` (the default): `/scim/v2` answers 404. See [SCIM provisioning](scim.md).
   */
  SCIM: z.enum(['off', 'on']).default('off'),
  /**
   * Dynamic client registration (RFC 7591, with RFC 7592's management) at `/oauth/register`. `off` (the
   * default): clients are registered by admins only. `token`: a client registers itself with an initial
   * access token an admin issued (portal, CLI, admin API), within that token's limits. `open`: without one
   * too, which anyone who reaches Gatehouse can then do: rate-limited per source address
   * (DYNAMIC_REGISTRATION_OPEN_HOURLY_CAP), and waiting for an admin's approval unless
   * DYNAMIC_REGISTRATION_OPEN_APPROVAL is `off`. See [Dynamic client registration](dynamic-registration.md).
   */
  DYNAMIC_REGISTRATION: z.enum(['off', 'token', 'open']).default('off'),
  /** With `DYNAMIC_REGISTRATION=open`, whether a client registered without an initial access token waits for an admin's approval. */
  DYNAMIC_REGISTRATION_OPEN_APPROVAL: z.enum(['off', 'on']).default('on'),
  /** With `DYNAMIC_REGISTRATION=open`, registrations without an initial access token per source address an hour (IPv6: per /64). */
  DYNAMIC_REGISTRATION_OPEN_HOURLY_CAP: z.coerce
    .number({ error: 'DYNAMIC_REGISTRATION_OPEN_HOURLY_CAP must be a whole number from 1 to 10000' })
    .int()
    .min(1)
    .max(10_000)
    .default(10),
  /**
   * Self-registered clients that get no token for this many days are disabled (checked hourly; an admin can
   * enable them again). `0` keeps them for ever.
   */
  DYNAMIC_REGISTRATION_UNUSED_DAYS: z.coerce
    .number({ error: 'DYNAMIC_REGISTRATION_UNUSED_DAYS must be a whole number of days (0 keeps them for ever)' })
    .int()
    .min(0)
    .max(36_500)
    .default(90),
  /**
   * With `BACKCHANNEL_LOGOUT=on`, how many times a logout token is sent to a client that does not answer
   * 200 before Gatehouse gives up (the waits double from 5 seconds: 10 tries span about 40 minutes).
   */
  BACKCHANNEL_LOGOUT_MAX_ATTEMPTS: z.coerce
    .number({ error: 'BACKCHANNEL_LOGOUT_MAX_ATTEMPTS must be a whole number from 1 to 30' })
    .int()
    .min(1)
    .max(30)
    .default(10),
  /**
   * How many times a webhook delivery is sent to an endpoint that does not answer 2xx before Gatehouse
   * marks it failed (the waits double from 5 seconds up to an hour: 12 tries span about 3 hours). An admin
   * can send a failed one again. See [Webhooks](webhooks.md).
   */
  WEBHOOK_MAX_ATTEMPTS: z.coerce.number({ error: 'WEBHOOK_MAX_ATTEMPTS must be a whole number from 1 to 30' }).int().min(1).max(30).default(12),
  /**
   * A webhook endpoint whose attempts failed this many times in a row, the first of them at least
   * WEBHOOK_DISABLE_AFTER_HOURS ago, is disabled (an audit entry, a notice in the portal); its pending
   * deliveries wait until an admin enables it again.
   */
  WEBHOOK_DISABLE_AFTER_FAILURES: z.coerce
    .number({ error: 'WEBHOOK_DISABLE_AFTER_FAILURES must be a whole number from 1 to 100000' })
    .int()
    .min(1)
    .max(100_000)
    .default(20),
  /** See WEBHOOK_DISABLE_AFTER_FAILURES; `0` disables on the count alone. */
  WEBHOOK_DISABLE_AFTER_HOURS: z.coerce
    .number({ error: 'WEBHOOK_DISABLE_AFTER_HOURS must be a whole number of hours from 0 to 720' })
    .int()
    .min(0)
    .max(720)
    .default(24),
  /**
   * How long an instance holds a webhook delivery it is sending: no other instance sends it meanwhile. When an
   * instance dies mid-delivery, the delivery goes out again (with the same `webhook-id`) once this runs out,
   * from any instance or the same one restarted. At least 15: longer than an attempt may take (10 seconds).
   */
  WEBHOOK_LEASE_SECONDS: z.coerce
    .number({ error: 'WEBHOOK_LEASE_SECONDS must be a whole number of seconds from 15 to 3600' })
    .int()
    .min(15)
    .max(3600)
    .default(60),
  /** How many days delivered and failed webhook deliveries stay in each endpoint's history. */
  WEBHOOK_HISTORY_DAYS: z.coerce.number({ error: 'WEBHOOK_HISTORY_DAYS must be a whole number of days from 1 to 3650' }).int().min(1).max(3650).default(30),
  /**
   * `on` serves the device authorization grant (RFC 8628) at `/oauth/device/auth`, with the page where
   * a person types the code at `/oauth/device`, and lists it in discovery. Each client still needs the
   * `urn:ietf:params:oauth:grant-type:device_code` grant. See [Protocol features](protocol-features.md#device-authorization-grant).
   */
  DEVICE_FLOW: z.enum(['off', 'on']).default('off'),
  /**
   * `on` accepts pushed authorization requests (RFC 9126) at `/oauth/par` and lists the endpoint; a
   * client then may be required to use it. See [Protocol features](protocol-features.md#pushed-authorization-requests-par).
   */
  PUSHED_AUTHORIZATION_REQUESTS: z.enum(['off', 'on']).default('off'),
  /**
   * `on` accepts signed request objects (RFC 9101, the `request` parameter; never `alg: none`); a
   * client with `request_object_signing_alg` must send them. See [Protocol features](protocol-features.md#signed-request-objects-jar).
   */
  REQUEST_OBJECTS: z.enum(['off', 'on']).default('off'),
  /**
   * `on` accepts DPoP proofs (RFC 9449) and binds tokens to them, with server nonces and replay
   * detection shared by every instance; a client with `dpop_bound_access_tokens` must use them. See
   * [Protocol features](protocol-features.md#dpop).
   */
  DPOP: z.enum(['off', 'on']).default('off'),
  /**
   * `on` offers pairwise subject identifiers (OpenID Connect Core §8) to the clients set to them. Turning
   * it off again gives those clients public subjects: their users look new to them. See
   * [Protocol features](protocol-features.md#pairwise-subject-identifiers).
   */
  PAIRWISE_SUBJECTS: z.enum(['off', 'on']).default('off'),
  /**
   * `on` accepts the `claims` request parameter (OpenID Connect Core §5.5), so a client can ask for single
   * claims in the ID token or at userinfo. See [Protocol features](protocol-features.md#claims-request-parameter).
   */
  CLAIMS_PARAMETER: z.enum(['off', 'on']).default('off'),
  /**
   * Sign-ups per source address an hour (IPv6: per /64), taken usernames included; past it the address
   * waits until the hour ends.
   */
  THROTTLE_SIGN_UP_HOURLY_CAP: throttleCount(10),
  /**
   * Serve Prometheus metrics at `http://METRICS_HOST:METRICS_PORT/metrics` on a listener of its own,
   * apart from the issuer's port, so the figures never reach the public side of a load balancer (for the
   * issuer's port, `METRICS_TOKEN`). Off by default so several instances on one host do not fight over one
   * port; `9464` is the usual choice, `0` takes any free port (tests). A port that is taken stops the
   * start. See [Monitoring](operations.md#monitoring).
   * @default unset (no metrics)
   */
  METRICS_PORT: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(0).max(65_535).optional()),
  /**
   * The interface the metrics listener binds to. The metrics need no credentials: bind beyond loopback
   * only where the network keeps strangers out (e.g. `0.0.0.0` inside a container whose port only the
   * scraper reaches).
   */
  METRICS_HOST: z.string().trim().min(1).default('127.0.0.1'),
  /**
   * Also serve `GET /metrics` on the issuer's own port, to `Authorization: Bearer <METRICS_TOKEN>` only
   * (401 otherwise), for a scraper that reaches nothing else. At least 32 of RFC 6750's token characters,
   * long enough that guessing it is hopeless (`openssl rand -hex 32`). See
   * [Monitoring](operations.md#monitoring).
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
   * The language (`en` or `de`) of the pages and mails when neither the authorization request's
   * `ui_locales` nor the browser's `Accept-Language` names a supported one, and of the mails an admin or
   * the CLI sends. See [Languages](features.md#languages).
   */
  DEFAULT_LOCALE: z.enum(SUPPORTED_LOCALES, { error: `DEFAULT_LOCALE must be one of ${SUPPORTED_LOCALES.join(', ')}` }).default('en'),
  // The operator's brand: every page, the provider's own pages and every mail.
  /**
   * The product's name people see on every page and mail: page titles, the sign-in card, the portal's
   * header (one line, at most 60 characters). See [Brand](features.md#brand).
   */
  BRAND_NAME: z
    .string()
    .trim()
    .min(1, 'BRAND_NAME must not be empty')
    .refine((v) => !/\p{Cc}/u.test(v), 'BRAND_NAME must be one line of text')
    .max(60, 'BRAND_NAME must be at most 60 characters')
    .default('Gatehouse'),
  /**
   * The accent colour, `#rgb` or `#rrggbb`: primary buttons, links, focus rings. Text on it and the
   * shades drawn on and with it are derived to meet WCAG AA contrast in both colour schemes.
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
   * The logo: a path this server serves from `public/` (such as `/acme.svg`) or an `https://` URL, whose
   * origin the pages' Content-Security-Policy then allows for images (that origin only).
   * @default unset (the gatehouse mark)
   */
  BRAND_LOGO_URL: z
    .string()
    .trim()
    .optional()
    .transform((v) => v || undefined)
    .refine((v) => v === undefined || isLogoPath(v) || isHttpsUrl(v), 'BRAND_LOGO_URL must be an https:// URL or a path on this server such as /logo.svg'),
  /**
   * Instead of `BRAND_LOGO_URL`, not with it: an SVG, PNG, WebP or JPEG file on the server's disk (at
   * most 256 kB, checked at start), served at `/brand/logo`.
   */
  BRAND_LOGO_FILE: z
    .string()
    .trim()
    .optional()
    .transform((v) => v || undefined)
    .refine((v) => v === undefined || /\.(svg|png|webp|jpe?g)$/i.test(v), 'BRAND_LOGO_FILE must name an .svg, .png, .webp or .jpg file'),
  /**
   * The least severe log line written: `fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`
   * (any case; `silent` writes nothing). `debug` adds the health probes' requests. See
   * [Logs](operations.md#logs).
   */
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

const configSchema = envSchema
  .refine((c) => !(c.BRAND_LOGO_URL && c.BRAND_LOGO_FILE), {
    path: ['BRAND_LOGO_FILE'],
    message: 'set BRAND_LOGO_URL or BRAND_LOGO_FILE, not both',
  })
  .transform((c) => ({ ...c, ISSUER: c.ISSUER ?? issuerFromPort(c.PORT) }));

/** The issuer of a server started without ISSUER: the port it listens on, on this machine. */
export const issuerFromPort = (port: number) => `http://localhost:${port}`;

/** The settings one by one, before they are checked together: docs/configuration.md is written from them (`npm run docs`). */
export const SETTINGS = envSchema;

/**
 * Settings read before or apart from this schema, documented here so that docs/configuration.md
 * lists every setting once. HOSTNAME is read by scripts/server.mjs before Next loads; the OTEL_*
 * ones keep OpenTelemetry's own names and meanings and are checked with the tracing SDK's options.
 * Each value says who reads it.
 */
export const OTHER_SETTINGS = {
  /**
   * The address `npm start` binds, e.g. `127.0.0.1` behind a reverse proxy on the same host (the `-H`
   * flag wins). The machine's own host name, which container runtimes and some shells put in
   * `HOSTNAME`, is ignored: such a deployment keeps every interface.
   * @default every interface
   */
  HOSTNAME: 'scripts/server.mjs',
  /**
   * Send OpenTelemetry traces to this OTLP/HTTP collector, e.g. `http://otel-collector:4318`
   * (`/v1/traces` is appended; `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` is used as it is). Unset, the
   * tracing SDK is not even loaded. See [Traces](operations.md#traces).
   * @default unset (no traces)
   */
  OTEL_EXPORTER_OTLP_ENDPOINT: 'tracing',
  /**
   * `http/protobuf` or `http/json` (`grpc` is refused: use the collector's HTTP port); also as
   * `OTEL_EXPORTER_OTLP_TRACES_PROTOCOL`.
   * @default `http/protobuf`
   */
  OTEL_EXPORTER_OTLP_PROTOCOL: 'tracing',
  /**
   * The traces' `service.name`; `OTEL_RESOURCE_ATTRIBUTES` adds others
   * (`deployment.environment.name=prod`).
   * @default `gatehouse`
   */
  OTEL_SERVICE_NAME: 'tracing',
  /**
   * Headers for the collector, e.g. `authorization=Bearer <token>`; likewise `OTEL_EXPORTER_OTLP_TIMEOUT`,
   * `_COMPRESSION` (`gzip`), `_CERTIFICATE`, `_CLIENT_CERTIFICATE`, `_CLIENT_KEY` and their `_TRACES_`
   * forms.
   * @default unset
   */
  OTEL_EXPORTER_OTLP_HEADERS: 'tracing',
  /**
   * Which traces are kept: also `parentbased_traceidratio` with `OTEL_TRACES_SAMPLER_ARG=0.1` (a
   * tenth), `always_on`, `always_off`, `traceidratio`, `parentbased_always_off`. `OTEL_SDK_DISABLED=true`
   * or `OTEL_TRACES_EXPORTER=none` turn tracing off; `OTEL_BSP_SCHEDULE_DELAY` (5000 ms),
   * `OTEL_BSP_MAX_QUEUE_SIZE` (2048), `OTEL_BSP_MAX_EXPORT_BATCH_SIZE` (512) and
   * `OTEL_BSP_EXPORT_TIMEOUT` (30000 ms) tune the batches. A value Gatehouse cannot use stops the
   * start, as any bad setting does.
   * @default `parentbased_always_on`
   */
  OTEL_TRACES_SAMPLER: 'tracing',
} as const;

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

let cached: { source: NodeJS.ProcessEnv; env: Env } | undefined;

/** Validates an environment (process.env, or a test's); throws an Error listing every invalid variable. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const parsed = configSchema.safeParse(source);
  if (!parsed.success) {
    const lines = issueMessages(parsed.error).map(([field, message]) => `  ${field}: ${message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}

/**
 * Parses process.env once (again only when process.env is replaced by another object, as the CLI's
 * tests do to run each command line with its own environment in one process).
 */
export function env(): Env {
  if (cached?.source !== process.env) cached = { source: process.env, env: parseEnv(process.env) };
  return cached.env;
}

/** Which database DATABASE_URL selects. */
export function databaseKind(url = env().DATABASE_URL): 'sqlite' | 'postgresql' {
  return url.startsWith('file:') ? 'sqlite' : 'postgresql';
}

/** The SQLite file path of a file: URL, resolved against the working directory. */
export function sqlitePath(url = env().DATABASE_URL): string {
  return url.slice('file:'.length);
}
