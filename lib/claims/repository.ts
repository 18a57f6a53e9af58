/**
 * The only code that queries custom user attributes and the clients' claim mappings (prisma/schema/models.prisma
 * `UserAttribute`, `UserAttributeValue`, `ClientClaimMapping`): plain objects out. Values are stored JSON-encoded;
 * `mappedClaims` is what the provider reads for every ID token and userinfo answer, through the read cache.
 */
import type { Database } from '../db/database.ts';

export const ATTRIBUTE_TYPES = ['string', 'number', 'boolean'] as const;
export type AttributeType = (typeof ATTRIBUTE_TYPES)[number];
export const EDITORS = ['admin', 'user'] as const;
export type Editor = (typeof EDITORS)[number];
export type AttributeValue = string | number | boolean;

export interface AttributeRecord {
  id: string;
  key: string;
  name: string;
  type: AttributeType;
  /** `user`: the person may change their own value on /account; `admin`: only admins. */
  editableBy: Editor;
  createdAt: Date;
}

export interface ClaimMappingRecord {
  clientId: string;
  claim: string;
  attribute: string;
}

const select = { id: true, key: true, name: true, type: true, editableBy: true, createdAt: true } as const;

const asAttribute = (row: { id: string; key: string; name: string; type: string; editableBy: string; createdAt: Date }): AttributeRecord => ({
  ...row,
  type: (ATTRIBUTE_TYPES as readonly string[]).includes(row.type) ? (row.type as AttributeType) : 'string',
  editableBy: row.editableBy === 'user' ? 'user' : 'admin',
});

/** A stored value read back; a row that does not parse (hand-edited) is no value. */
function parseValue(text: string): AttributeValue | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? value : undefined;
  } catch {
    return undefined;
  }
}

export async function listAttributes(db: Database): Promise<AttributeRecord[]> {
  return (await db.prisma.userAttribute.findMany({ select, orderBy: { key: 'asc' } })).map(asAttribute);
}

export async function findAttributeByKey(db: Database, key: string): Promise<AttributeRecord | undefined> {
  const row = await db.prisma.userAttribute.findUnique({ where: { key }, select });
  return row ? asAttribute(row) : undefined;
}

export async function insertAttribute(db: Database, attribute: Omit<AttributeRecord, 'createdAt'>): Promise<AttributeRecord> {
  return asAttribute(await db.prisma.userAttribute.create({ data: attribute, select }));
}

export async function deleteAttributeRow(db: Database, id: string): Promise<void> {
  await db.prisma.userAttribute.delete({ where: { id } });
  // Its mappings went with it, of whichever clients: rare enough to forget every cached entry.
  db.cache.clear();
}

/** A person's values by attribute key. */
export async function valuesOf(db: Database, userId: string): Promise<Record<string, AttributeValue>> {
  const rows = await db.prisma.userAttributeValue.findMany({ where: { userId }, select: { value: true, attribute: { select: { key: true } } } });
  const values: Record<string, AttributeValue> = {};
  for (const row of rows) {
    const value = parseValue(row.value);
    if (value !== undefined) values[row.attribute.key] = value;
  }
  return values;
}

/** Sets a person's value, or removes it (`undefined`). */
export async function writeValue(db: Database, userId: string, attributeId: string, value: AttributeValue | undefined): Promise<void> {
  if (value === undefined) {
    await db.prisma.userAttributeValue.deleteMany({ where: { userId, attributeId } });
    return;
  }
  const text = JSON.stringify(value);
  await db.prisma.userAttributeValue.upsert({
    where: { userId_attributeId: { userId, attributeId } },
    create: { userId, attributeId, value: text },
    update: { value: text },
  });
}

export async function listMappings(db: Database, clientId?: string): Promise<ClaimMappingRecord[]> {
  const rows = await db.prisma.clientClaimMapping.findMany({
    where: clientId === undefined ? {} : { clientId },
    select: { clientId: true, claim: true, attribute: { select: { key: true } } },
    orderBy: [{ clientId: 'asc' }, { claim: 'asc' }],
  });
  return rows.map((row) => ({ clientId: row.clientId, claim: row.claim, attribute: row.attribute.key }));
}

export async function insertMapping(db: Database, clientId: string, claim: string, attributeId: string): Promise<void> {
  await db.prisma.clientClaimMapping.create({ data: { clientId, claim, attributeId } });
  db.cache.forget(`ClaimMappings:${clientId}`);
}

export async function deleteMapping(db: Database, clientId: string, claim: string): Promise<boolean> {
  const deleted = (await db.prisma.clientClaimMapping.deleteMany({ where: { clientId, claim } })).count > 0;
  db.cache.forget(`ClaimMappings:${clientId}`);
  return deleted;
}

/** A client's mapping, claim name → attribute id, through the process's read cache: most clients have none. */
function mappingOf(db: Database, clientId: string): Promise<{ claim: string; attributeId: string }[] | undefined> {
  return db.cache.read(`ClaimMappings:${clientId}`, () =>
    db.prisma.clientClaimMapping.findMany({ where: { clientId }, select: { claim: true, attributeId: true } }),
  );
}

/**
 * The claims a client's mapping gives it for a person: claim name → the person's value; attributes without one are
 * left out. The provider asks on every ID token and userinfo answer, and most clients map nothing: their mapping is
 * read through the process's read cache (an empty list kept like any other; on PostgreSQL the migration
 * `claim_mapping_cache` notifies every instance of a change), and only a client with a mapping costs the person's
 * values, one query.
 */
export async function mappedClaims(db: Database, clientId: string, userId: string): Promise<Record<string, AttributeValue>> {
  const mapping = (await mappingOf(db, clientId)) ?? [];
  if (mapping.length === 0) return {};
  const rows = await db.prisma.userAttributeValue.findMany({
    where: { userId, attributeId: { in: mapping.map((entry) => entry.attributeId) } },
    select: { attributeId: true, value: true },
  });
  const byAttribute = new Map(rows.map((row) => [row.attributeId, row.value]));
  const claims: Record<string, AttributeValue> = {};
  for (const { claim, attributeId } of mapping) {
    const stored = byAttribute.get(attributeId);
    const value = stored === undefined ? undefined : parseValue(stored);
    if (value !== undefined) claims[claim] = value;
  }
  return claims;
}
