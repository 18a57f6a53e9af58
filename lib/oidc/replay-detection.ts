/**
 * DPoP proofs (RFC 9449 §11.1) are refused the second time they are seen, on any instance. oidc-provider's
 * ReplayDetection.unique looks the proof up and then saves it: two instances handed the same proof at the
 * same moment can both find nothing and both accept it. Here the proof is saved (an upsert, which never
 * clears a consumption) and then consumed; consuming is atomic in the shared store (a conditional UPDATE in
 * the table, HSETNX in Redis: lib/db/artifact-store.ts), so of any number of presentations exactly one wins.
 */
import { hash } from 'node:crypto';
import type Provider from 'oidc-provider';
import { consumeArtifactOnce, saveArtifact } from '../db/artifact-store.ts';
import type { Database } from '../db/database.ts';

type Unique = (iss: string, jti: string, exp: number) => Promise<boolean>;

export function useAtomicReplayDetection(provider: Provider, db: Database, now: () => number): void {
  const ReplayDetection = (provider as unknown as { ReplayDetection: { unique: Unique } }).ReplayDetection;
  ReplayDetection.unique = async (iss, jti, exp) => {
    // The library's own id for the pair (oidc-provider lib/models/replay_detection.js).
    const id = hash('sha256', `${iss}${jti}`, 'base64url');
    await saveArtifact(db, 'ReplayDetection', id, { jti: id, iss, kind: 'ReplayDetection', exp }, exp * 1000);
    return consumeArtifactOnce(db, 'ReplayDetection', id, now());
  };
}
