/**
 * The admin API's signing key operations (lib/keys/signing-keys.ts). After
 * a change this instance rebuilds its provider before it answers, so its JWKS
 * and discovery already show the change; the others follow within ROTATION_POLL_MS.
 */
import {
  retireSigningKey as retireSigningKeyUseCase,
  listSigningKeys as listKeys,
  rotateSigningKeys as rotateKeys,
  rotationSettings,
} from '../../keys/signing-keys.ts';
import { signingKeyToWire } from '../../keys/wire.ts';
import { operations } from './operations.ts';
import { endpoint } from './route.ts';

export const listSigningKeys = endpoint(operations.listSigningKeys, async ({ db }) => ({ data: (await listKeys(db)).map(signingKeyToWire) }));

export const rotateSigningKeys = endpoint(operations.rotateSigningKeys, async ({ db, config, body, by, refreshProvider, now }) => {
  const outcomes = await rotateKeys(db, rotationSettings(config), { algs: body.alg ? [body.alg] : undefined, immediately: body.now, now: now(), by });
  await refreshProvider();
  return { data: outcomes.map((o) => ({ alg: o.alg, outcome: o.outcome, kid: o.kid, activates_at: new Date(o.activatesAt).toISOString() })) };
});

export const retireSigningKey = endpoint(operations.retireSigningKey, async ({ db, params, by, refreshProvider, now }) => {
  const { key, early } = await retireSigningKeyUseCase(db, params.kid, { now: now(), by });
  await refreshProvider();
  return { ...signingKeyToWire(key), early };
});
