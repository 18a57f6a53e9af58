/**
 * The audit log's hash chain: every entry carries the hash of the one before
 * it, one chain per deployment (every instance appends to it, one after
 * another: lib/audit/repository.ts `appendAuditEvent`). Changing an entry
 * changes its hash; removing or reordering entries breaks a link. What the
 * chain alone cannot show (the whole tail rewritten with new hashes) the
 * signed checkpoints do (lib/audit/checkpoints.ts). docs/audit.md says what it
 * proves and what it does not.
 */
import { createHash } from 'node:crypto';

/** What the first entry's prev_hash is, and the chain head's hash before any entry. */
export const GENESIS_HASH = '0'.repeat(64);

/** The one chain head row (audit_chain_heads), made by the migration that added the chain. */
export const CHAIN_ID = 'audit';

/** An entry's fields that its hash covers: everything it says. */
export interface ChainedFields {
  id: string;
  at: Date;
  actorId: string | null;
  actorUsername: string | null;
  actorRole: string | null;
  action: string;
  targetType: string | null;
  targetId: string | null;
  targetLabel: string | null;
  ip: string | null;
  userAgent: string | null;
  /** The stored JSON text itself, so its key order is what was hashed. */
  details: string;
}

/**
 * SHA-256 (hex) over the canonical serialization of an entry: a JSON array of
 * a version tag, the previous hash, then its fields in a fixed order (`at` as
 * an ISO instant in ms). `seq` is not in it: the order is what the links prove
 * (each entry names its predecessor's hash), so renumbered entries show as
 * links to the wrong entry rather than as changed ones.
 */
export function entryHash(entry: ChainedFields, prevHash: string): string {
  const canonical = JSON.stringify([
    'gatehouse.audit.v1',
    prevHash,
    entry.id,
    entry.at.toISOString(),
    entry.actorId,
    entry.actorUsername,
    entry.actorRole,
    entry.action,
    entry.targetType,
    entry.targetId,
    entry.targetLabel,
    entry.ip,
    entry.userAgent,
    entry.details,
  ]);
  return createHash('sha256').update(canonical).digest('hex');
}
