/**
 * The signing keys' rotation state, without their key material: what the
 * rotation reads every few seconds (one small query on the raw driver), and
 * its transitions. Each transition is conditional on the state it leaves, so
 * instances that decide the same step at once change a key once; the one
 * whose write changed nothing knows it lost (lib/keys/signing-keys.ts).
 * The private keys themselves are read and written in ./secrets.ts, sealed.
 */
import type { SigningKey } from '../generated/sqlite/client.ts';
import type { Database } from '../db/database.ts';
import type { RawRow } from '../db/rows.ts';
import { epochMs } from '../db/rows.ts';
import type { SigningKeyState } from '../db/secrets.ts';

/** A key as the rotation and its surfaces see it: never its private part. Times are epoch ms (0: not set). */
export interface SigningKeyInfo {
  kid: string;
  alg: string;
  state: SigningKeyState;
  createdAt: number;
  /** When it starts signing (next) or started (current, previous). */
  activatesAt: number;
  /** When a previous key is retired; 0 for the others. */
  retireAfter: number;
}

/** Every stored key, oldest first. */
export async function listSigningKeyInfo(db: Database): Promise<SigningKeyInfo[]> {
  const rows = await db.sql.all<RawRow<SigningKey, 'kid' | 'alg' | 'state' | 'createdAt' | 'activatesAt' | 'retireAfter'>>(
    'SELECT kid, alg, state, created_at, activates_at, retire_after FROM signing_keys',
  );
  return rows
    .map((row) => ({
      kid: row.kid,
      alg: row.alg,
      state: row.state as SigningKeyState,
      createdAt: epochMs(row.created_at),
      activatesAt: epochMs(row.activates_at),
      retireAfter: epochMs(row.retire_after),
    }))
    .sort((a, b) => a.createdAt - b.createdAt || (a.kid < b.kid ? -1 : 1));
}

/** What decides the JWKS and which key signs: changes exactly when a provider built on the keys must be rebuilt. */
export function signingKeysVersion(keys: readonly SigningKeyInfo[]): string {
  return keys
    .map((k) => `${k.kid}:${k.state}:${k.activatesAt}`)
    .sort()
    .join(',');
}

/** A next key starts signing: first itself (false when another instance promoted it or it is gone), then the current one of its algorithm steps down. */
export async function promoteSigningKey(db: Database, key: { kid: string; alg: string }, now: Date, retireAfter: Date): Promise<boolean> {
  const promoted = await db.prisma.signingKey.updateMany({ where: { kid: key.kid, state: 'next' }, data: { state: 'current', activatesAt: now } });
  if (promoted.count === 0) return false;
  await db.prisma.signingKey.updateMany({ where: { alg: key.alg, state: 'current', kid: { not: key.kid } }, data: { state: 'previous', retireAfter } });
  return true;
}

/** A current key stops signing (a second current key of its algorithm); false when it already had. */
export async function demoteSigningKey(db: Database, kid: string, retireAfter: Date): Promise<boolean> {
  const { count } = await db.prisma.signingKey.updateMany({ where: { kid, state: 'current' }, data: { state: 'previous', retireAfter } });
  return count > 0;
}

/** A next key starts signing at `activatesAt` instead. */
export async function rescheduleSigningKey(db: Database, kid: string, activatesAt: Date): Promise<boolean> {
  const { count } = await db.prisma.signingKey.updateMany({ where: { kid, state: 'next' }, data: { activatesAt } });
  return count > 0;
}

/** Deletes a key in one of `states` (never the one that signs); false when it was not there in such a state. */
export async function deleteSigningKey(db: Database, kid: string, states: readonly SigningKeyState[]): Promise<boolean> {
  const { count } = await db.prisma.signingKey.deleteMany({ where: { kid, state: { in: [...states] } } });
  return count > 0;
}
