/**
 * Signing key rotation. Each algorithm (RS256, ES256) has its own keys, each in
 * one state:
 *
 *   next      published in the JWKS, not signing yet: relying parties that
 *             cache the JWKS learn it before they meet a token it signed
 *             (KEY_PUBLISH_AHEAD_HOURS);
 *   current   signs (one per algorithm);
 *   previous  published, not signing, until every token it signed has expired
 *             (LONGEST_SIGNED_LIFETIME after it stopped), then retired: deleted.
 *
 * `dueSteps` says what the clock makes due (a pure function: the state machine);
 * `checkSigningKeys` applies it. Every instance checks every few seconds
 * (`startSigningKeyRotation`, one small query) and rebuilds its provider when the
 * published keys changed, so a change made anywhere is served everywhere within
 * ROTATION_POLL_MS plus a build. Instances that apply the same step at once race
 * on conditional writes (lib/keys/repository.ts): one changes the key and audits
 * it; a key is created only while its algorithm has none in that state
 * (lib/db/secrets.ts, `insertSigningKeyIfNone`). A duplicate that exists all
 * the same (an admin's rotation racing the check, a database from before) is
 * put right at the next check: an extra next key is retired, an extra current
 * one stops signing. Every step a check carries out is logged (`logSigningKeySteps`).
 */
import type { AppContext } from '../context.ts';
import type { Env } from '../config/env.ts';
import type { Database } from '../db/database.ts';
import type { Log } from '../ops/log.ts';
import { insertSigningKey, insertSigningKeyIfNone } from '../db/secrets.ts';
import {
  deleteSigningKey,
  demoteSigningKey,
  listSigningKeyInfo,
  promoteSigningKey,
  rescheduleSigningKey,
  signingKeysVersion,
  type SigningKeyInfo,
} from './repository.ts';
import { ID_TOKEN_SIGNING_ALGS, type IdTokenSigningAlg } from '../oidc/algorithms.ts';
import { generateSigningJwk } from '../oidc/keys.ts';
import { LONGEST_SIGNED_LIFETIME } from '../oidc/signed-lifetimes.ts';
import { BY_SYSTEM, recordAuditBy, type AuditBy } from '../audit/log.ts';
import { Conflict, NotFound } from '../platform/errors.ts';

export type { SigningKeyInfo };

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** How often every instance reads the keys' state: the bound on how late it serves a change made elsewhere (a rotation by hand on one instance); one small query, so it can be short. */
export const ROTATION_POLL_MS = 2_000;

export interface RotationSettings {
  /** Days a key signs before the next one takes over; 0: no automatic rotation. */
  rotationDays: number;
  /** Hours a new key is published before it signs. */
  publishAheadMs: number;
}

export const rotationSettings = (config: Pick<Env, 'KEY_ROTATION_DAYS' | 'KEY_PUBLISH_AHEAD_HOURS'>): RotationSettings => ({
  rotationDays: config.KEY_ROTATION_DAYS,
  publishAheadMs: config.KEY_PUBLISH_AHEAD_HOURS * HOUR_MS,
});

/** When a key that stops signing at `now` may leave the JWKS. */
export const retireAfterFrom = (now: number) => now + LONGEST_SIGNED_LIFETIME * 1000;

export type Step =
  | { kind: 'create'; alg: IdTokenSigningAlg; state: 'next' | 'current'; activatesAt: number }
  | { kind: 'promote'; key: SigningKeyInfo }
  | { kind: 'demote'; key: SigningKeyInfo }
  | { kind: 'retire'; key: SigningKeyInfo; reason: 'expired' | 'duplicate' };

/** The current key that signs, should there be two (the later): the same choice as the provider's (lib/db/secrets.ts). */
const signingFirst = (a: SigningKeyInfo, b: SigningKeyInfo) => b.activatesAt - a.activatesAt || (a.kid < b.kid ? -1 : 1);
/** The next key that takes over, should there be two (the earlier). */
const earliestFirst = (a: SigningKeyInfo, b: SigningKeyInfo) => a.activatesAt - b.activatesAt || (a.kid < b.kid ? -1 : 1);

/** What the clock makes due at `now`, per algorithm. */
export function dueSteps(keys: readonly SigningKeyInfo[], settings: RotationSettings, now: number): Step[] {
  const steps: Step[] = [];
  for (const alg of ID_TOKEN_SIGNING_ALGS) {
    const own = keys.filter((k) => k.alg === alg);
    const [current, ...extraCurrents] = own.filter((k) => k.state === 'current').sort(signingFirst);
    const [next, ...extraNexts] = own.filter((k) => k.state === 'next').sort(earliestFirst);
    for (const key of extraCurrents) steps.push({ kind: 'demote', key });
    for (const key of extraNexts) steps.push({ kind: 'retire', key, reason: 'duplicate' });
    if (!current) {
      // Nothing signs (a first start): a next key takes over at once, or a new key does.
      steps.push(next ? { kind: 'promote', key: next } : { kind: 'create', alg, state: 'current', activatesAt: now });
    } else if (next) {
      if (next.activatesAt <= now) steps.push({ kind: 'promote', key: next });
    } else if (settings.rotationDays > 0) {
      const rotateAt = current.activatesAt + settings.rotationDays * DAY_MS;
      if (now >= rotateAt - settings.publishAheadMs)
        steps.push({ kind: 'create', alg, state: 'next', activatesAt: Math.max(rotateAt, now + settings.publishAheadMs) });
    }
    for (const key of own) if (key.state === 'previous' && key.retireAfter <= now) steps.push({ kind: 'retire', key, reason: 'expired' });
  }
  return steps;
}

const iso = (ms: number) => new Date(ms).toISOString();
const target = (kid: string) => ({ type: 'signing_key' as const, id: kid, label: kid });

/**
 * Generates, stores and audits a key; returns its kid. `onlyIfNone`: unless the
 * algorithm has a key in that state already (undefined then: another instance
 * made it first), so instances that see the same step due at once make one key.
 */
async function createKey(
  db: Database,
  key: { alg: IdTokenSigningAlg; state: 'next' | 'current'; activatesAt: number; now: number },
  by: AuditBy,
  { automatic, onlyIfNone = false }: { automatic: boolean; onlyIfNone?: boolean },
): Promise<string | undefined> {
  const { alg, state, activatesAt } = key;
  const jwk = generateSigningJwk(alg);
  const record = {
    kid: jwk.kid,
    alg,
    privateJwk: jwk as unknown as Record<string, unknown>,
    state,
    activatesAt: new Date(activatesAt),
    createdAt: new Date(key.now),
  };
  if (onlyIfNone) {
    if (!(await insertSigningKeyIfNone(db, record))) return undefined;
  } else {
    await insertSigningKey(db, record);
  }
  await recordAuditBy(db, by, { action: 'key.created', target: target(jwk.kid), details: { alg, state, activatesAt: iso(activatesAt), automatic } });
  return jwk.kid;
}

/** Makes `key` (next) current now; false when another instance did first. */
async function promote(db: Database, key: SigningKeyInfo, now: number, by: AuditBy, flags: { immediately: boolean; automatic: boolean }): Promise<boolean> {
  const previous = (await listSigningKeyInfo(db)).filter((k) => k.alg === key.alg && k.state === 'current').sort(signingFirst)[0];
  const retireAfter = retireAfterFrom(now);
  if (!(await promoteSigningKey(db, key, new Date(now), new Date(retireAfter)))) return false;
  await recordAuditBy(db, by, {
    action: 'key.rotated',
    target: target(key.kid),
    details: { alg: key.alg as IdTokenSigningAlg, ...(previous ? { previousKid: previous.kid, retireAfter: iso(retireAfter) } : {}), ...flags },
  });
  return true;
}

/** A step carried out; `kid`: the key a `create` step made. */
export type AppliedStep = Step & { kid?: string };

/**
 * Applies what is due (`dueSteps`); returns the steps this call carried out
 * (another instance may have carried out the others). A key is created only
 * when its algorithm still has none in that state: two instances starting at
 * once on an empty database make one current key per algorithm.
 */
export async function checkSigningKeys(
  db: Database,
  settings: RotationSettings,
  { now, by = BY_SYSTEM }: { now: number; by?: AuditBy },
): Promise<AppliedStep[]> {
  const applied: AppliedStep[] = [];
  for (const step of dueSteps(await listSigningKeyInfo(db), settings, now)) {
    let done = false;
    if (step.kind === 'create') {
      const kid = await createKey(db, { ...step, now }, by, { automatic: true, onlyIfNone: true });
      if (kid) applied.push({ ...step, kid });
      continue;
    } else if (step.kind === 'promote') {
      done = await promote(db, step.key, now, by, { immediately: false, automatic: true });
    } else if (step.kind === 'demote') {
      done = await demoteSigningKey(db, step.key.kid, new Date(retireAfterFrom(now)));
    } else {
      done = await deleteSigningKey(db, step.key.kid, [step.key.state]);
      if (done) {
        const details = { alg: step.key.alg as IdTokenSigningAlg, reason: step.reason };
        await recordAuditBy(db, by, { action: 'key.retired', target: target(step.key.kid), details });
      }
    }
    if (done) applied.push(step);
  }
  return applied;
}

/** When an algorithm's current key hands over: the next key is published from `publishAt` and signs from `signsAt`. */
export interface PlannedRotation {
  alg: string;
  /** The key that signs until then. */
  kid: string;
  publishAt: number;
  signsAt: number;
}

/**
 * The next automatic rotation of each algorithm, as `dueSteps` will carry it
 * out: a next key already published signs at its time; otherwise one is
 * published KEY_PUBLISH_AHEAD_HOURS before the current key's KEY_ROTATION_DAYS
 * are over (or at the next check, when that moment passed while no instance
 * ran). None without KEY_ROTATION_DAYS, unless an admin already published a next key.
 */
export function plannedRotations(keys: readonly SigningKeyInfo[], settings: RotationSettings, now: number): PlannedRotation[] {
  const planned: PlannedRotation[] = [];
  for (const alg of ID_TOKEN_SIGNING_ALGS) {
    const [current] = keys.filter((k) => k.alg === alg && k.state === 'current').sort(signingFirst);
    if (!current) continue;
    const [next] = keys.filter((k) => k.alg === alg && k.state === 'next').sort(earliestFirst);
    if (next) {
      planned.push({ alg, kid: current.kid, publishAt: next.createdAt, signsAt: Math.max(next.activatesAt, now) });
    } else if (settings.rotationDays > 0) {
      const rotateAt = current.activatesAt + settings.rotationDays * DAY_MS;
      const publishAt = Math.max(rotateAt - settings.publishAheadMs, now);
      planned.push({ alg, kid: current.kid, publishAt, signsAt: Math.max(rotateAt, publishAt + settings.publishAheadMs) });
    }
  }
  return planned;
}

/** Every stored key, by algorithm, the signing one first. Never key material. */
export async function listSigningKeys(db: Database): Promise<SigningKeyInfo[]> {
  const rank = { current: 0, next: 1, previous: 2 } as const;
  return (await listSigningKeyInfo(db)).sort((a, b) => (a.alg < b.alg ? -1 : a.alg > b.alg ? 1 : rank[a.state] - rank[b.state] || signingFirst(a, b)));
}

export interface RotationOutcome {
  alg: IdTokenSigningAlg;
  /** `rotated`: `kid` signs from now on; `scheduled`: `kid` is published and signs from `activatesAt`. */
  outcome: 'rotated' | 'scheduled';
  kid: string;
  activatesAt: number;
}

/**
 * An admin's rotation, for each of `algs`. The next key takes over now when it
 * has been published for KEY_PUBLISH_AHEAD_HOURS; otherwise it is scheduled
 * for the end of that lead (a new next key is created when there is none).
 * `immediately` skips the lead: for a compromised key, at the price of relying
 * parties with a cached JWKS refusing the new key's tokens until they fetch it
 * again (and other instances serving it up to ROTATION_POLL_MS later).
 */
export async function rotateSigningKeys(
  db: Database,
  settings: RotationSettings,
  { algs = ID_TOKEN_SIGNING_ALGS, immediately = false, now, by }: { algs?: readonly IdTokenSigningAlg[]; immediately?: boolean; now: number; by: AuditBy },
): Promise<RotationOutcome[]> {
  const outcomes: RotationOutcome[] = [];
  for (const alg of algs) {
    const keys = await listSigningKeyInfo(db);
    let next = keys.filter((k) => k.alg === alg && k.state === 'next').sort(earliestFirst)[0];
    if (!next) {
      const activatesAt = immediately ? now : now + settings.publishAheadMs;
      const kid = (await createKey(db, { alg, state: 'next', activatesAt, now }, by, { automatic: false }))!;
      next = { kid, alg, state: 'next', createdAt: now, activatesAt, retireAfter: 0 };
    }
    const publishedEnough = next.createdAt + settings.publishAheadMs <= now;
    if (immediately || publishedEnough) {
      if (!(await promote(db, next, now, by, { immediately: immediately && !publishedEnough, automatic: false }))) {
        throw new Conflict(`another rotation of the ${alg} keys happened at the same time; list the keys and try again`);
      }
      outcomes.push({ alg, outcome: 'rotated', kid: next.kid, activatesAt: now });
      continue;
    }
    const activatesAt = next.createdAt + settings.publishAheadMs;
    if (next.activatesAt !== activatesAt) await rescheduleSigningKey(db, next.kid, new Date(activatesAt));
    outcomes.push({ alg, outcome: 'scheduled', kid: next.kid, activatesAt });
  }
  return outcomes;
}

/**
 * An admin retires a key that does not sign: a next key (never used), or a
 * previous one (`early` when tokens it signed may still be valid: they stop
 * verifying, which is the point when the key was compromised).
 */
export async function retireSigningKey(db: Database, kid: string, { now, by }: { now: number; by: AuditBy }): Promise<{ key: SigningKeyInfo; early: boolean }> {
  const key = (await listSigningKeyInfo(db)).find((k) => k.kid === kid);
  if (!key) throw new NotFound(`no signing key with kid ${kid}`);
  if (key.state === 'current') throw new Conflict(`${kid} signs the ${key.alg} tokens: rotate first (gatehouse keys rotate), then retire it`);
  if (!(await deleteSigningKey(db, kid, ['next', 'previous']))) throw new Conflict(`${kid} changed meanwhile; list the keys and try again`);
  const early = key.state === 'previous' && key.retireAfter > now;
  await recordAuditBy(db, by, {
    action: 'key.retired',
    target: target(kid),
    details: { alg: key.alg as IdTokenSigningAlg, reason: 'admin', ...(key.state === 'previous' ? { early } : {}) },
  });
  return { key, early };
}

/**
 * Every ROTATION_POLL_MS: applies what is due, then has the context rebuild its
 * provider if the published keys changed (here or on another instance). Never
 * keeps a process alive. Returns a function that stops it.
 */
export function startSigningKeyRotation(
  ctx: Pick<AppContext, 'db' | 'now' | 'refreshProvider' | 'log'>,
  settings: RotationSettings,
  { intervalMs = ROTATION_POLL_MS }: { intervalMs?: number } = {},
): () => void {
  let stopped = false;
  let failing = false;
  let timer: NodeJS.Timeout | undefined;
  const run = async () => {
    try {
      let keys = await listSigningKeyInfo(ctx.db);
      if (dueSteps(keys, settings, ctx.now()).length > 0) {
        logSigningKeySteps(ctx.log, await checkSigningKeys(ctx.db, settings, { now: ctx.now() }));
        keys = await listSigningKeyInfo(ctx.db);
      }
      await ctx.refreshProvider(signingKeysVersion(keys));
      failing = false;
    } catch (error) {
      // Once per outage, not every few seconds.
      if (!failing) ctx.log.error({ err: error }, 'signing keys: the rotation check failed');
      failing = true;
    }
    if (!stopped) timer = setTimeout(run, intervalMs).unref();
  };
  timer = setTimeout(run, 0).unref();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

/**
 * One info line per step a check carried out, at start and on every later
 * check: the operator sees each automatic change (the audit log has them too,
 * as key.created / key.rotated / key.retired by the system). Kids only, never key material.
 */
export function logSigningKeySteps(log: Pick<Log, 'info'>, steps: readonly AppliedStep[]): void {
  for (const step of steps) {
    const kid = step.kind === 'create' ? step.kid : step.key.kid;
    const alg = step.kind === 'create' ? step.alg : step.key.alg;
    const fields = {
      signing_key: {
        action: step.kind,
        kid,
        alg,
        ...(step.kind === 'create' ? { state: step.state, activates_at: iso(step.activatesAt) } : {}),
        ...(step.kind === 'retire' ? { reason: step.reason } : {}),
      },
    };
    log.info(fields, `signing keys: ${describeStep(step)}`);
  }
}

function describeStep(step: AppliedStep): string {
  if (step.kind === 'create') {
    return step.state === 'current'
      ? `created ${step.kid}, the ${step.alg} key that signs from now on`
      : `published ${step.kid}, the next ${step.alg} key: it signs from ${iso(step.activatesAt)} (KEY_ROTATION_DAYS)`;
  }
  if (step.kind === 'promote') return `${step.key.kid} now signs ${step.key.alg} tokens; the key before it stays published until its tokens have expired`;
  if (step.kind === 'demote') return `${step.key.kid} no longer signs (a second current ${step.key.alg} key)`;
  return `retired ${step.key.kid} (${step.key.alg}, ${step.reason === 'expired' ? 'every token it signed has expired' : 'a duplicate next key'})`;
}
