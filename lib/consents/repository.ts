/**
 * A person's consents to apps (prisma/schema/models.prisma `Consent`): the scopes and claims
 * they allowed each client, one row per person and client. The provider's grants live only
 * as long as the session that made them (oidc-provider revokes a session's grants at sign-out
 * unless offline_access was granted), so the consent itself is kept here, and each new
 * session's grant is made from it (lib/oidc/grants.ts): the person is asked once per app, and
 * again only for what the app asks beyond it.
 */
import type { Database } from '../db/database.ts';

export interface Consent {
  clientId: string;
  /** The OpenID Connect scopes allowed, in the order first allowed. */
  scopes: string[];
  /** Claims allowed beyond the scopes' own (the claims request parameter, OIDC Core §5.5). */
  claims: string[];
  /** The APIs' permissions allowed, by API identifier (RFC 8707 resource indicators). */
  resources: Record<string, string[]>;
  createdAt: Date;
  updatedAt: Date;
}

type Row = { clientId: string; scopes: string; claims: string; resources: string; createdAt: Date; updatedAt: Date };
const fields = { clientId: true, scopes: true, claims: true, resources: true, createdAt: true, updatedAt: true } as const;

function resourcesOf(text: string): Record<string, string[]> {
  try {
    const parsed: unknown = JSON.parse(text);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    return Object.fromEntries(
      Object.entries(parsed).map(([indicator, scopes]) => [indicator, Array.isArray(scopes) ? scopes.filter((s): s is string => typeof s === 'string') : []]),
    );
  } catch {
    return {};
  }
}

function claimsOf(text: string): string[] {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.filter((claim): claim is string => typeof claim === 'string') : [];
  } catch {
    return [];
  }
}

const asConsent = (row: Row): Consent => ({
  ...row,
  scopes: row.scopes.split(' ').filter(Boolean),
  claims: claimsOf(row.claims),
  resources: resourcesOf(row.resources),
});

export async function findConsent(db: Database, userId: string, clientId: string): Promise<Consent | undefined> {
  const row = await db.prisma.consent.findUnique({ where: { userId_clientId: { userId, clientId } }, select: fields });
  return row ? asConsent(row) : undefined;
}

/** Every app the person has consented to, the most recently changed first. */
export async function listConsents(db: Database, userId: string): Promise<Consent[]> {
  const rows = await db.prisma.consent.findMany({ where: { userId }, select: fields, orderBy: { updatedAt: 'desc' } });
  return rows.map(asConsent);
}

const union = (before: string[], added: readonly string[]) => [...new Set([...before, ...added])];

/**
 * Adds what the person just allowed to their consent to the client (made on the first). Each write is one
 * statement that applies only to the row it was merged from (compare-and-set on its content), tried again
 * when another write came first: two consents given at once in two browsers both count, and no write holds
 * a transaction open across round trips (on SQLite, an interactive transaction waiting for the one writer
 * timed out under load: P1008 at the consent step).
 */
export async function addToConsent(
  db: Database,
  userId: string,
  clientId: string,
  given: { scopes: readonly string[]; claims: readonly string[]; resources?: Readonly<Record<string, readonly string[]>> },
): Promise<Consent> {
  const key = { userId_clientId: { userId, clientId } };
  for (let attempt = 0; ; attempt++) {
    const before = await db.prisma.consent.findUnique({ where: key, select: fields });
    const scopes = union(before ? before.scopes.split(' ').filter(Boolean) : [], given.scopes).join(' ');
    const claims = JSON.stringify(union(before ? claimsOf(before.claims) : [], given.claims));
    const merged = before ? resourcesOf(before.resources) : {};
    for (const [indicator, permissions] of Object.entries(given.resources ?? {})) merged[indicator] = union(merged[indicator] ?? [], permissions);
    const resources = JSON.stringify(merged);
    if (!before) {
      try {
        return asConsent(await db.prisma.consent.create({ data: { userId, clientId, scopes, claims, resources }, select: fields }));
      } catch (error) {
        // Another browser made the row first: merge into it.
        if (!isUniqueViolation(error) || attempt >= 5) throw error;
        continue;
      }
    }
    const { count } = await db.prisma.consent.updateMany({
      where: { userId, clientId, scopes: before.scopes, claims: before.claims, resources: before.resources },
      data: { scopes, claims, resources },
    });
    if (count === 1) return asConsent({ ...before, scopes, claims, resources, updatedAt: new Date() });
    if (attempt >= 5) throw new Error('the consent kept changing under this write');
  }
}

const isUniqueViolation = (error: unknown) => typeof error === 'object' && error !== null && (error as { code?: string }).code === 'P2002';

/** Forgets the person's consent to the client; whether there was one. */
export async function deleteConsent(db: Database, userId: string, clientId: string): Promise<boolean> {
  const { count } = await db.prisma.consent.deleteMany({ where: { userId, clientId } });
  return count > 0;
}

/** Forgets every consent the person gave; how many there were. */
export async function deleteConsentsOf(db: Database, userId: string): Promise<number> {
  const { count } = await db.prisma.consent.deleteMany({ where: { userId } });
  return count;
}
