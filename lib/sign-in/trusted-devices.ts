/**
 * Trusted devices (TRUSTED_DEVICE_DAYS, off by default): after a right second step with
 * "Don't ask for a second step on this device" ticked, the browser's device cookie entry for the
 * account (./devices.ts: a random device id and an HMAC only this server can make) is stored as
 * trusted until an end date (prisma/schema/models.prisma `TrustedDevice`). A later password
 * typed in that browser signs in without the second step, as what it is: a password-only
 * sign-in (acr `urn:gatehouse:acr:password`, amr `pwd`, RFC 8176 §2), never `mfa`.
 *
 * Trust skips only a second step the person's own factors would ask for. It is neither
 * offered nor used when the request needs more than a password: a client registered with
 * require_second_factor, acr_values asking for the mfa acr first (lib/oidc/step-up.ts), or a
 * request for a fresh sign-in (max_age, prompt=login). Changing the password or resetting the
 * second factors ends every trust of the account (lib/users/repository.ts setPasswordHash,
 * lib/factors/repository.ts deleteAllFactors); the person removes one in /account.
 */
import { randomUUID } from 'node:crypto';
import type { AppContext } from '../context.ts';
import type { Database } from '../db/database.ts';
import type { Interaction } from '../oidc/interaction.ts';
import { secondFactorRequired } from '../oidc/step-up.ts';
import { knownDevice } from './devices.ts';

export interface TrustedDevice {
  id: string;
  /** The user agent that asked for the trust, for /account to word ("Chrome on Linux"). */
  userAgent: string | null;
  createdAt: Date;
  expiresAt: Date;
  lastUsedAt: Date | null;
  /** This page's own browser. */
  current: boolean;
}

type Settings = Pick<AppContext, 'db' | 'now' | 'provider'> & { config: Pick<AppContext['config'], 'TRUSTED_DEVICE_DAYS'> };

/** The login prompt's reasons that ask for a fresh sign-in: a trusted device must not shorten it. */
const FRESH_SIGN_IN = new Set(['login_prompt', 'max_age']);

/** Whether this interaction may be shortened by (or make) a trusted device: see the module's comment. */
export async function trustAllowed(ctx: Settings, interaction: Interaction): Promise<boolean> {
  if (ctx.config.TRUSTED_DEVICE_DAYS <= 0) return false;
  if (interaction.prompt.reasons.some((reason) => FRESH_SIGN_IN.has(reason))) return false;
  const provider = await ctx.provider();
  const client = await provider.Client.find(String(interaction.params.client_id));
  return Boolean(client) && !secondFactorRequired(interaction.params.acr_values, client?.metadata().require_second_factor);
}

/** The trusted device this browser is for `accountId`, if any and still in force (its last use is noted). */
export async function trustedDeviceHere(ctx: Settings, accountId: string, cookie: string | null): Promise<boolean> {
  const deviceId = await knownDevice(ctx.db, accountId, cookie);
  if (!deviceId) return false;
  const now = new Date(ctx.now());
  const { count } = await ctx.db.prisma.trustedDevice.updateMany({ where: { userId: accountId, deviceId, expiresAt: { gt: now } }, data: { lastUsedAt: now } });
  return count > 0;
}

/** Trusts the device `deviceId` of `accountId` for TRUSTED_DEVICE_DAYS from now (again, if it already was). */
export async function trustDevice(ctx: Settings, accountId: string, deviceId: string, userAgent: string | null): Promise<void> {
  const createdAt = new Date(ctx.now());
  const expiresAt = new Date(ctx.now() + ctx.config.TRUSTED_DEVICE_DAYS * 86_400_000);
  const agent = userAgent?.slice(0, 512) ?? null;
  await ctx.db.prisma.trustedDevice.upsert({
    where: { userId_deviceId: { userId: accountId, deviceId } },
    create: { id: randomUUID(), userId: accountId, deviceId, userAgent: agent, createdAt, expiresAt },
    update: { userAgent: agent, createdAt, expiresAt, lastUsedAt: null },
  });
}

/** The person's trusted devices still in force, the newest first; `current`: the one `cookie` proves. */
export async function listTrustedDevices(db: Database, accountId: string, cookie: string | null, now: number): Promise<TrustedDevice[]> {
  const [rows, here] = await Promise.all([
    db.prisma.trustedDevice.findMany({ where: { userId: accountId, expiresAt: { gt: new Date(now) } }, orderBy: { createdAt: 'desc' } }),
    knownDevice(db, accountId, cookie),
  ]);
  return rows.map((row) => ({
    id: row.id,
    userAgent: row.userAgent,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    lastUsedAt: row.lastUsedAt,
    current: row.deviceId === here,
  }));
}

/** Ends the trust of one of the person's devices; whether it was theirs and trusted. */
export async function removeTrustedDevice(db: Database, accountId: string, id: string): Promise<boolean> {
  const { count } = await db.prisma.trustedDevice.deleteMany({ where: { id, userId: accountId } });
  return count > 0;
}
