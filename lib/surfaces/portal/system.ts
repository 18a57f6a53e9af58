/**
 * What /admin/system shows: how this server is set up, in the words an
 * operator checks against their configuration, and the signing keys' rotation.
 * Never a secret, URL credential or key material: the database and Redis are
 * named by kind only, signing keys by kid.
 */
import 'server-only';
import { serverContext } from '../../context.ts';
import { Conflict } from '../../platform/errors.ts';
import type { MailMode } from '../../mail/mailer.ts';
import { canMailLinks } from '../../mail-links/password-reset.ts';
import { listSigningKeys, rotateSigningKeys, rotationSettings, type RotationOutcome, type SigningKeyInfo } from '../../keys/signing-keys.ts';
import { byAdmin } from './audit-context.ts';
import type { AdminUser } from './session.ts';

/** What the System page shows, as facts it words itself (in the catalogs' admin.system). */
export interface SystemView {
  issuer: string;
  database: 'SQLite' | 'PostgreSQL';
  throttleCounters: 'database' | 'redis';
  /** Where mail goes: an SMTP server (named without credentials), the log (development), nowhere. */
  mail: { mode: MailMode; server?: string; passwordReset: boolean };
  secondFactorRequired: 'admins' | 'everyone' | 'off';
  /** KEY_ROTATION_DAYS (0: automatic rotation off) and KEY_PUBLISH_AHEAD_HOURS. */
  keyRotation: { days: number; publishAheadHours: number };
  /** SIGN_UP and the email domains it accepts (empty: any). */
  signUp: { open: boolean; domains: string[] };
  /** Seconds: SESSION_TTL (kept signed in), SESSION_IDLE_TTL (not kept), ACCESS_TOKEN_TTL, REFRESH_TOKEN_TTL. */
  lifetimes: { session: number; sessionIdle: number; accessToken: number; refreshToken: number };
  /**
   * A browser offers WebAuthn only in a secure context (https, or http on localhost) and only for a host that
   * can be a relying party id: a domain name, never an IP address (WebAuthn §5.1.4.1, the RP ID is a valid domain).
   */
  passkeysAvailable: boolean;
}

/** Whether the issuer's host can carry passkeys (see SystemView.passkeysAvailable). */
export function passkeysPossible(issuer: string): boolean {
  const url = new URL(issuer);
  const host = url.hostname;
  const ip = /^\d{1,3}(?:\.\d{1,3}){3}$/.test(host) || host.startsWith('[');
  return !ip && (url.protocol === 'https:' || host === 'localhost' || host.endsWith('.localhost'));
}

export function systemView(): SystemView {
  const ctx = serverContext();
  const { config } = ctx;
  return {
    issuer: config.ISSUER,
    database: config.DATABASE_URL.startsWith('file:') ? 'SQLite' : 'PostgreSQL',
    throttleCounters: config.REDIS_URL ? 'redis' : 'database',
    mail: { mode: ctx.mailer.mode, server: ctx.mailer.server, passwordReset: canMailLinks(ctx) },
    secondFactorRequired: config.SECOND_FACTOR_REQUIRED,
    keyRotation: { days: config.KEY_ROTATION_DAYS, publishAheadHours: config.KEY_PUBLISH_AHEAD_HOURS },
    signUp: { open: config.SIGN_UP === 'on', domains: config.SIGN_UP_EMAIL_DOMAINS },
    lifetimes: {
      session: config.SESSION_TTL,
      sessionIdle: config.SESSION_IDLE_TTL,
      accessToken: config.ACCESS_TOKEN_TTL,
      refreshToken: config.REFRESH_TOKEN_TTL,
    },
    passkeysAvailable: passkeysPossible(config.ISSUER),
  };
}

/** The signing keys as the System page lists them (lib/keys/signing-keys.ts): never key material. */
export function signingKeysView(): Promise<SigningKeyInfo[]> {
  return listSigningKeys(serverContext().db);
}

/** `conflict`: another rotation ran at the same time; `outcomes`: per algorithm, its new key signing now or from when. The page words each. */
export type KeyRotation = { status: 'idle' } | { status: 'refused'; reason: 'unconfirmed' | 'conflict' } | { status: 'done'; outcomes: RotationOutcome[] };

/**
 * The System page's Rotate: ticked first, as every destructive form in the portal.
 * `now` (a compromised key) makes the new keys sign at once. This instance serves
 * the change before the page answers; the others follow within seconds.
 */
export async function rotateKeysFromForm(admin: AdminUser, form: FormData): Promise<KeyRotation> {
  if (form.get('confirm') !== 'on') return { status: 'refused', reason: 'unconfirmed' };
  const ctx = serverContext();
  try {
    const outcomes = await rotateSigningKeys(ctx.db, rotationSettings(ctx.config), {
      immediately: form.get('now') === 'on',
      now: ctx.now(),
      by: await byAdmin(admin),
    });
    await ctx.refreshProvider();
    return { status: 'done', outcomes };
  } catch (error) {
    if (error instanceof Conflict) return { status: 'refused', reason: 'conflict' };
    throw error;
  }
}
