/**
 * Verifying the audit chain (`gatehouse audit verify`, the admin API's GET
 * /api/admin/audit-events/verify): walks every entry in chain order and names
 * what does not add up, first problem first:
 *
 *   changed    an entry's fields no longer hash to its hash, or a signed
 *              checkpoint says the entry at that place had another hash
 *              (the chain was rewritten with fresh hashes);
 *   removed    entries missing: a gap in seq, a start that no signed
 *              checkpoint explains, or an end short of the chain's head;
 *   reordered  an entry names another entry than the one before it as its
 *              predecessor (seq numbers moved);
 *   inserted   an entry outside the chain (no seq) written after its genesis;
 *   checkpoint_forged  a checkpoint whose signature does not verify.
 *
 * Checkpoints signed by a key neither published nor given (`kept`) are counted
 * as unverifiable, not as problems: keys retire (lib/keys), and only a JWKS
 * kept from their day can check them.
 */
import type { JWK } from 'jose';
import type { Database } from '../db/database.ts';
import { CHAIN_ID, entryHash, GENESIS_HASH } from './chain.ts';
import { checkCheckpoint, checkpointKeys, listCheckpoints } from './checkpoints.ts';

export const chainProblemKinds = ['changed', 'removed', 'reordered', 'inserted', 'checkpoint_forged'] as const;
export type ChainProblemKind = (typeof chainProblemKinds)[number];

export interface ChainProblem {
  kind: ChainProblemKind;
  /** The entry (or checkpoint) it is about: its seq, id and time; null where there is none (entries gone). */
  seq: number | null;
  id: string | null;
  at: Date | null;
  message: string;
}

export interface ChainReport {
  ok: boolean;
  /** Entries in the chain, and its first and last seq (null: none left). */
  entries: number;
  firstSeq: number | null;
  lastSeq: number | null;
  /** Entries from before the chain (seq null): not covered by it. */
  unchained: number;
  checkpoints: { total: number; valid: number; unverifiable: number; forged: number };
  /** The kids of the checkpoints no given key could check. */
  unverifiableKids: string[];
  /** In chain order; at most MAX_PROBLEMS. */
  problems: ChainProblem[];
}

const PAGE = 2_000;
const MAX_PROBLEMS = 100;

export async function verifyAuditChain(db: Database, { kept = [] }: { kept?: readonly JWK[] } = {}): Promise<ChainReport> {
  const problems: ChainProblem[] = [];
  const problem = (p: ChainProblem) => {
    if (problems.length < MAX_PROBLEMS) problems.push(p);
  };

  // What the checkpoints say, once their signatures are checked: the hash each signed place had.
  const keys = await checkpointKeys(db, kept);
  const signed = new Map<number, { hash: string; at: string; reason: string }>();
  // Retention's cuts apart: only they account for entries gone from the start (a periodic one only says what was).
  const cuts = new Map<number, { hash: string; at: string; reason: string }>();
  const checkpoints = { total: 0, valid: 0, unverifiable: 0, forged: 0 };
  const unverifiableKids = new Set<string>();
  let genesisAt: Date | undefined;
  for (const checkpoint of await listCheckpoints(db)) {
    checkpoints.total++;
    const check = await checkCheckpoint(checkpoint.jws, keys);
    if (check.status === 'unknown_key') {
      checkpoints.unverifiable++;
      unverifiableKids.add(check.kid);
    } else if (check.status === 'forged') {
      checkpoints.forged++;
      problem({
        kind: 'checkpoint_forged',
        seq: checkpoint.seq,
        id: checkpoint.id,
        at: checkpoint.at,
        message: `checkpoint ${checkpoint.id} (seq ${checkpoint.seq}, ${checkpoint.reason}): its signature does not verify with key ${check.kid || '(none named)'}`,
      });
    } else {
      checkpoints.valid++;
      const { payload } = check;
      signed.set(payload.seq, { hash: payload.hash, at: payload.at, reason: payload.reason });
      if (payload.reason === 'retention') cuts.set(payload.seq, { hash: payload.hash, at: payload.at, reason: payload.reason });
      if (payload.reason === 'genesis' && (!genesisAt || new Date(payload.at) < genesisAt)) genesisAt = new Date(payload.at);
    }
  }

  let entries = 0;
  let first: { seq: number } | undefined;
  let prev: { seq: number; hash: string; id: string; at: Date } | undefined;
  const named = new Set<string>();
  for (;;) {
    const rows = await db.prisma.auditEvent.findMany({
      where: { seq: prev ? { gt: prev.seq } : { not: null } },
      orderBy: { seq: 'asc' },
      take: PAGE,
    });
    for (const row of rows) {
      const seq = row.seq!;
      const where = `entry ${row.id} (seq ${seq}, ${row.at.toISOString()})`;
      const about = { seq, id: row.id, at: row.at };
      entries++;
      if (!first) {
        first = { seq };
        if (seq === 1) {
          if (row.prevHash !== GENESIS_HASH)
            problem({ kind: 'changed', ...about, message: `${where}: the chain's first entry does not start from the genesis` });
        } else {
          const cut = cuts.get(seq - 1);
          if (!cut)
            problem({
              kind: 'removed',
              ...about,
              message: `entries 1 to ${seq - 1} are missing before ${where}, and no signed checkpoint records their removal`,
            });
          else if (cut.hash !== row.prevHash)
            problem({
              kind: 'removed',
              ...about,
              message: `${where} does not follow the entry the ${cut.reason} checkpoint of ${cut.at} signed as seq ${seq - 1}`,
            });
        }
      }
      if (entryHash(row, row.prevHash ?? '') !== row.hash) problem({ kind: 'changed', ...about, message: `${where}: its fields no longer match its hash` });
      if (prev) {
        if (row.prevHash !== prev.hash) {
          if (seq !== prev.seq + 1) {
            problem({ kind: 'removed', ...about, message: `entries ${prev.seq + 1} to ${seq - 1} are missing between entry ${prev.id} and ${where}` });
          } else if (!named.has(row.id) && !named.has(prev.id)) {
            const before = row.prevHash ? await db.prisma.auditEvent.findFirst({ where: { hash: row.prevHash }, select: { id: true, seq: true } }) : null;
            if (before) {
              named.add(row.id).add(before.id);
              problem({
                kind: 'reordered',
                ...about,
                message: `${where} follows entry ${before.id} (now seq ${before.seq}) in the chain, not entry ${prev.id}`,
              });
            } else {
              problem({
                kind: 'changed',
                seq: prev.seq,
                id: prev.id,
                at: prev.at,
                message: `entry ${prev.id} (seq ${prev.seq}) is not the entry ${where} follows: it was changed and its hash made again, or the entry between them removed and the rest renumbered`,
              });
            }
          }
        } else if (seq !== prev.seq + 1 && !named.has(row.id)) {
          named.add(row.id);
          problem({ kind: 'reordered', ...about, message: `${where} follows entry ${prev.id} (seq ${prev.seq}) in the chain: its seq was changed` });
        }
      }
      const statement = signed.get(seq);
      if (statement && statement.hash !== row.hash)
        problem({
          kind: 'changed',
          ...about,
          message: `${where}: the ${statement.reason} checkpoint of ${statement.at} signed another hash for seq ${seq}: the chain up to it was rewritten`,
        });
      prev = { seq, hash: row.hash ?? '', id: row.id, at: row.at };
    }
    if (rows.length < PAGE) break;
  }

  // The end: the head says how far the chain went; signed checkpoints beyond the last entry say the same.
  const head = await db.prisma.auditChainHead.findUnique({ where: { id: CHAIN_ID } });
  const lastSigned = Math.max(0, ...signed.keys());
  const end = Math.max(head?.seq ?? 0, lastSigned);
  if (prev && end > prev.seq) {
    problem({
      kind: 'removed',
      seq: null,
      id: null,
      at: null,
      message: `entries ${prev.seq + 1} to ${end} are missing after entry ${prev.id} (seq ${prev.seq}), the last one left`,
    });
  } else if (prev && head && head.seq === prev.seq && head.hash !== prev.hash) {
    problem({
      kind: 'changed',
      seq: prev.seq,
      id: prev.id,
      at: prev.at,
      message: `entry ${prev.id} (seq ${prev.seq}): the chain's head recorded another hash for it`,
    });
  } else if (!prev && end > 0 && !(cuts.has(end) && (head?.seq ?? 0) <= end)) {
    problem({ kind: 'removed', seq: null, id: null, at: null, message: `entries 1 to ${end} are missing, and no signed checkpoint records their removal` });
  }

  const unchained = await db.prisma.auditEvent.count({ where: { seq: null } });
  if (genesisAt) {
    const late = await db.prisma.auditEvent.findFirst({ where: { seq: null, at: { gt: genesisAt } }, orderBy: { at: 'asc' } });
    if (late)
      problem({
        kind: 'inserted',
        seq: null,
        id: late.id,
        at: late.at,
        message: `entry ${late.id} (${late.at.toISOString()}) is outside the chain but later than its genesis (${genesisAt.toISOString()})`,
      });
  }

  problems.sort((a, b) => (a.seq ?? Number.MAX_SAFE_INTEGER) - (b.seq ?? Number.MAX_SAFE_INTEGER));
  return {
    ok: problems.length === 0,
    entries,
    firstSeq: first?.seq ?? null,
    lastSeq: prev?.seq ?? null,
    unchained,
    checkpoints,
    unverifiableKids: [...unverifiableKids],
    problems,
  };
}

/** The report on the wire (the CLI's --json, the admin API's answer): snake_case, times as ISO strings. */
export function chainReportToWire(report: ChainReport) {
  return {
    ok: report.ok,
    entries: report.entries,
    first_seq: report.firstSeq,
    last_seq: report.lastSeq,
    unchained: report.unchained,
    checkpoints: report.checkpoints,
    unverifiable_kids: report.unverifiableKids,
    problems: report.problems.map((p) => ({ kind: p.kind, seq: p.seq, id: p.id, at: p.at?.toISOString() ?? null, message: p.message })),
  };
}
