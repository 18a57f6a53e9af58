/**
 * The device's polling pace (RFC 8628 §3.5), which oidc-provider (pinned version) defines an error for
 * (`slow_down`) but never answers: the device authorization response says the interval (§3.2, 5 seconds,
 * the RFC's default), and a device that polls again sooner gets `slow_down`, after which its interval is 5
 * seconds longer "for this and all subsequent requests". When each device code was last polled, and its
 * interval, are kept in the shared store (the table, as the device code itself), so the pace holds however
 * the polls spread over instances; under the SHA-256 of the code, never the code.
 */
import { createHash } from 'node:crypto';
import type Provider from 'oidc-provider';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { DEVICE_CODE_GRANT } from '../../clients/protocol-features.ts';
import { loadArtifact, saveArtifact } from '../../db/artifact-store.ts';
import type { Database } from '../../db/database.ts';

/** RFC 8628 §3.2: "If no value is provided, clients MUST use 5 as the default." Said anyway. */
export const DEVICE_POLL_INTERVAL = 5;
/** What slow_down adds (§3.5). */
const SLOW_DOWN_STEP = 5;
/** As long as a device code lives (ttl.DeviceCode in lib/oidc/configuration.ts). */
const PACE_TTL_MS = 600_000;

interface Pace {
  lastPolled: number;
  interval: number;
}

export function useDevicePollingPace(provider: Provider, paths: { token: string; deviceAuthorization: string }, db: Database, now: () => number): void {
  provider.use(async (ctx, next) => {
    await next();
    if (ctx.method !== 'POST' || ctx.status !== 200 || ctx.path !== paths.deviceAuthorization) return;
    const body = ctx.body as { device_code?: unknown } | undefined;
    if (body && typeof body === 'object' && typeof body.device_code === 'string') ctx.body = { ...body, interval: DEVICE_POLL_INTERVAL };
  });
  provider.use(async (ctx, next) => {
    await next();
    if (ctx.method !== 'POST' || ctx.path !== paths.token) return;
    const params = (ctx as KoaContextWithOIDC).oidc?.params as { grant_type?: unknown; device_code?: unknown } | undefined;
    if (params?.grant_type !== DEVICE_CODE_GRANT || typeof params.device_code !== 'string') return;
    // Only a pending code has a pace to keep: tokens, denial and expiry are answered as they are.
    if ((ctx.body as { error?: string } | undefined)?.error !== 'authorization_pending') return;
    const id = createHash('sha256').update(params.device_code).digest('hex');
    const at = now();
    const seen = (await loadArtifact(db, 'DevicePoll', id, at)) as Partial<Pace> | undefined;
    const interval = typeof seen?.interval === 'number' ? seen.interval : DEVICE_POLL_INTERVAL;
    const tooSoon = typeof seen?.lastPolled === 'number' && at - seen.lastPolled < interval * 1000;
    const pace: Pace = { lastPolled: at, interval: tooSoon ? interval + SLOW_DOWN_STEP : interval };
    await saveArtifact(db, 'DevicePoll', id, { ...pace }, at + PACE_TTL_MS);
    if (tooSoon) {
      ctx.body = { error: 'slow_down', error_description: `you are polling too quickly: wait at least ${pace.interval} seconds between requests` };
    }
  });
}
