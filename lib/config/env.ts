/**
 * Gatehouse's configuration, read from the environment once and validated with
 * zod. Everything has a safe default so `npm start` works with no configuration;
 * a bad value stops the process with a message naming the variable.
 */
import { z } from 'zod';

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
    .transform((v) => (v ? v.split(',').map((k) => k.trim()).filter(Boolean) : undefined)),
  /** Access token lifetime in seconds. */
  ACCESS_TOKEN_TTL: z.coerce.number().int().min(60).max(86_400).default(3600),
  /** Refresh token lifetime in seconds. */
  REFRESH_TOKEN_TTL: z.coerce.number().int().min(300).max(31_536_000).default(14 * 86_400),
  /** Signed-in session lifetime in seconds. */
  SESSION_TTL: z.coerce.number().int().min(300).max(31_536_000).default(14 * 86_400),
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
});

export type Env = z.infer<typeof envSchema>;

let cached: Env | undefined;

/** Parses process.env once; throws an Error listing every invalid variable. */
export function env(): Env {
  if (cached) return cached;
  const parsed = envSchema.safeParse(process.env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  cached = parsed.data;
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
