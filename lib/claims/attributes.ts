/**
 * Custom user attributes and the clients' claim mappings: the admins' and the person's use cases. An admin declares
 * an attribute (a key, a name, a type, and whether the person may change it themselves); values are set in the portal
 * and, where allowed, on /account; a client gets an attribute only when an admin maps it to a claim name for that
 * client. Declarative only: a mapping names an attribute and a claim, and no code of anyone's runs. Every change is
 * validated with zod and audited.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { recordAuditBy, type AuditBy } from '../audit/log.ts';
import type { Database } from '../db/database.ts';
import { findClient } from '../clients/repository.ts';
import { Conflict, Forbidden, InvalidRequest, NotFound, parseInput } from '../platform/errors.ts';
import { existingUser } from '../users/manage.ts';
import * as repo from './repository.ts';
import type { AttributeRecord, AttributeValue, Editor } from './repository.ts';

/**
 * Claims an app already gets from Gatehouse with their own meaning (OIDC Core §2, §5.1; RFC 9068; RFC 8176; the
 * `groups` and `roles` claims): a mapping never replaces one.
 */
export const RESERVED_CLAIMS = new Set([
  'iss', 'sub', 'aud', 'exp', 'nbf', 'iat', 'jti', 'auth_time', 'nonce', 'acr', 'amr', 'azp', 'sid', 'at_hash', 'c_hash', 's_hash',
  'client_id', 'scope', 'cnf', 'typ', 'name', 'given_name', 'family_name', 'middle_name', 'nickname', 'preferred_username',
  'profile', 'picture', 'website', 'email', 'email_verified', 'gender', 'birthdate', 'zoneinfo', 'locale', 'phone_number',
  'phone_number_verified', 'address', 'updated_at', 'groups', 'roles', 'username', '_claim_names', '_claim_sources',
]); // biome-ignore format: one list

export const attributeKeySchema = z.string().regex(/^[a-z][a-z0-9_]{0,63}$/, 'a key is lowercase letters, digits and _, starting with a letter');

/** A claim name: letters, digits and _ . : / - (a collision-resistant URI is fine), none of the reserved ones. */
export const claimNameSchema = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z][A-Za-z0-9_.:/-]*$/, 'a claim name is letters, digits and _ . : / -, starting with a letter')
  .refine((name) => !RESERVED_CLAIMS.has(name), 'that claim is one Gatehouse already gives apps with its own meaning');

export const newAttributeSchema = z.strictObject({
  key: attributeKeySchema,
  name: z.string().trim().min(1).max(100),
  type: z.enum(repo.ATTRIBUTE_TYPES).default('string'),
  editableBy: z.enum(repo.EDITORS).default('admin'),
});
export type NewAttributeInput = z.input<typeof newAttributeSchema>;

const attributeTarget = (attribute: AttributeRecord) => ({ type: 'attribute' as const, id: attribute.id, label: attribute.key });

export async function existingAttribute(db: Database, key: string): Promise<AttributeRecord> {
  const attribute = await repo.findAttributeByKey(db, key);
  if (!attribute) throw new NotFound(`no attribute ${key}`);
  return attribute;
}

export async function createAttribute(db: Database, input: NewAttributeInput, by?: AuditBy): Promise<AttributeRecord> {
  const data = parseInput(newAttributeSchema, input);
  if (await repo.findAttributeByKey(db, data.key)) throw new Conflict(`an attribute ${data.key} exists already`, { field: 'key' });
  const attribute = await repo.insertAttribute(db, { id: randomUUID(), ...data });
  await recordAuditBy(db, by, {
    action: 'attribute.created',
    target: attributeTarget(attribute),
    details: { type: attribute.type, editableBy: attribute.editableBy },
  });
  return attribute;
}

/** Deletes the attribute, every person's value of it, and every client's mapping of it. */
export async function deleteAttribute(db: Database, key: string, by?: AuditBy): Promise<void> {
  const attribute = await existingAttribute(db, key);
  await repo.deleteAttributeRow(db, attribute.id);
  await recordAuditBy(db, by, { action: 'attribute.deleted', target: attributeTarget(attribute), details: {} });
}

/** A typed value from a form's text: empty is no value; a number or boolean that does not read as one is refused. */
export function readValue(attribute: AttributeRecord, text: string): AttributeValue | undefined {
  const value = text.trim();
  if (attribute.type === 'boolean') return value === 'true' || value === 'on' ? true : value === 'false' ? false : undefined;
  if (!value) return undefined;
  if (attribute.type === 'number') {
    const number = Number(value);
    if (!Number.isFinite(number)) throw new InvalidRequest(`${attribute.name} is a number`, { field: attribute.key });
    return number;
  }
  if (value.length > 500) throw new InvalidRequest(`${attribute.name} is at most 500 characters`, { field: attribute.key });
  return value;
}

/**
 * Sets a person's values of the attributes named in `values` (key → form text; other attributes stay as they are).
 * `as: 'user'` is the person on /account: only attributes they may edit; anything else is refused, nothing written.
 */
export async function setAttributeValues(
  db: Database,
  userId: string,
  values: Record<string, string>,
  as: Editor,
  by?: AuditBy,
): Promise<Record<string, AttributeValue>> {
  const user = await existingUser(db, userId);
  const attributes = new Map((await repo.listAttributes(db)).map((a) => [a.key, a]));
  const before = await repo.valuesOf(db, user.id);
  const writes: [AttributeRecord, AttributeValue | undefined][] = [];
  for (const [key, text] of Object.entries(values)) {
    const attribute = attributes.get(key);
    if (!attribute) throw new NotFound(`no attribute ${key}`);
    if (as === 'user' && attribute.editableBy !== 'user') throw new Forbidden(`${attribute.name} is changed by an admin only`);
    writes.push([attribute, readValue(attribute, text)]);
  }
  const changed = writes.filter(([attribute, value]) => before[attribute.key] !== value);
  for (const [attribute, value] of changed) await repo.writeValue(db, user.id, attribute.id, value);
  if (changed.length) {
    await recordAuditBy(db, by, {
      action: 'user.updated',
      target: { type: 'user', id: user.id, label: user.username },
      details: { changed: changed.map(([attribute]) => `attribute:${attribute.key}`) },
    });
  }
  return repo.valuesOf(db, user.id);
}

async function clientTarget(db: Database, clientId: string) {
  const client = await findClient(db, clientId);
  if (!client) throw new NotFound(`no client ${clientId}`);
  return { type: 'client' as const, id: client.id, label: client.name };
}

/** The client's ID tokens and userinfo carry the attribute `attribute` under `claim`. */
export async function mapClaim(db: Database, clientId: string, input: { claim: string; attribute: string }, by?: AuditBy): Promise<void> {
  const claim = parseInput(claimNameSchema, input.claim, 'claim');
  const target = await clientTarget(db, clientId);
  const attribute = await existingAttribute(db, input.attribute);
  if ((await repo.listMappings(db, clientId)).some((m) => m.claim === claim))
    throw new Conflict(`${clientId} has a claim ${claim} already`, { field: 'claim' });
  await repo.insertMapping(db, clientId, claim, attribute.id);
  await recordAuditBy(db, by, { action: 'client.claim_mapped', target, details: { claim, attribute: attribute.key } });
}

export async function unmapClaim(db: Database, clientId: string, claim: string, by?: AuditBy): Promise<void> {
  const target = await clientTarget(db, clientId);
  if (!(await repo.deleteMapping(db, clientId, claim))) throw new NotFound(`${clientId} has no claim ${claim}`);
  await recordAuditBy(db, by, { action: 'client.claim_unmapped', target, details: { claim } });
}

export { listAttributes, listMappings, valuesOf, mappedClaims } from './repository.ts';
export type { AttributeRecord, AttributeValue, ClaimMappingRecord } from './repository.ts';
