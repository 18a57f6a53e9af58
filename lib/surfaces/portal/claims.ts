/**
 * The portal's side of claims (lib/claims, lib/users/profile-claims.ts): the attributes page (declare and delete
 * attributes, map them to claims per client) and a person's claims on their page. Each change takes the admin
 * requireAdmin() returned (the server actions call it with the permission first) and goes through the use cases,
 * which validate and audit; a refusal is the form's message.
 */
import 'server-only';
import { serverContext } from '../../context.ts';
import { createAttribute, deleteAttribute, listAttributes, listMappings, mapClaim, setAttributeValues, unmapClaim, valuesOf } from '../../claims/attributes.ts';
import type { AttributeRecord, AttributeValue, ClaimMappingRecord } from '../../claims/repository.ts';
import { listClients } from '../../clients/repository.ts';
import { ServiceError } from '../../platform/errors.ts';
import { profileClaimsOf, updateProfileClaims, type ProfileClaims } from '../../users/profile-claims.ts';
import type { AdminUser } from './access.ts';
import type { AccessFormState } from './access-form-state.ts';
import { byAdmin } from './audit-context.ts';

export async function attributesView(): Promise<{ attributes: AttributeRecord[]; mappings: ClaimMappingRecord[]; clients: { id: string; name: string }[] }> {
  const { db } = serverContext();
  const [attributes, mappings, clients] = await Promise.all([listAttributes(db), listMappings(db), listClients(db)]);
  return { attributes, mappings, clients: clients.filter((c) => c.grantTypes.includes('authorization_code')).map(({ id, name }) => ({ id, name })) };
}

export interface PersonClaims {
  profile: ProfileClaims;
  attributes: AttributeRecord[];
  values: Record<string, AttributeValue>;
}

export async function claimsOf(userId: string): Promise<PersonClaims> {
  const { db } = serverContext();
  const [profile, attributes, values] = await Promise.all([profileClaimsOf(db, userId), listAttributes(db), valuesOf(db, userId)]);
  return { profile, attributes, values };
}

export async function attempt(notice: string, change: () => Promise<unknown>): Promise<AccessFormState> {
  try {
    await change();
    return { status: 'done', notice };
  } catch (error) {
    if (error instanceof ServiceError && error.shown) return { status: 'error', message: error.message };
    throw error;
  }
}

const text = (form: FormData, name: string) => String(form.get(name) ?? '').trim();

/** The profile claims' fields of a form (components/claims/claims-fields.tsx); the verified box only where an admin is the one asking. */
export function readProfileClaims(form: FormData, admin: boolean) {
  return {
    givenName: text(form, 'givenName'),
    familyName: text(form, 'familyName'),
    picture: text(form, 'picture'),
    locale: text(form, 'locale'),
    zoneinfo: text(form, 'zoneinfo'),
    phoneNumber: text(form, 'phoneNumber'),
    ...(admin ? { phoneNumberVerified: form.get('phoneNumberVerified') === 'on' } : {}),
  };
}

/** The attribute fields of a form, `attribute.<key>`, for the attributes `keys` the form shows. */
export function readAttributeValues(form: FormData, keys: string[]): Record<string, string> {
  return Object.fromEntries(keys.filter((key) => form.has(`attribute.${key}`)).map((key) => [key, text(form, `attribute.${key}`)]));
}

export const createAttributeFromForm = async (admin: AdminUser, form: FormData) =>
  attempt('attribute_created', async () =>
    createAttribute(
      serverContext().db,
      {
        key: text(form, 'key'),
        name: text(form, 'name'),
        type: text(form, 'type') as 'string',
        editableBy: text(form, 'editableBy') === 'user' ? 'user' : 'admin',
      },
      await byAdmin(admin),
    ),
  );

export const deleteAttributeFor = async (admin: AdminUser, key: string) =>
  attempt('attribute_deleted', async () => deleteAttribute(serverContext().db, key, await byAdmin(admin)));

export const mapClaimFromForm = async (admin: AdminUser, form: FormData) =>
  attempt('claim_mapped', async () =>
    mapClaim(serverContext().db, text(form, 'client'), { claim: text(form, 'claim'), attribute: text(form, 'attribute') }, await byAdmin(admin)),
  );

export const unmapClaimFor = async (admin: AdminUser, clientId: string, claim: string) =>
  attempt('claim_unmapped', async () => unmapClaim(serverContext().db, clientId, claim, await byAdmin(admin)));

/** A person's profile claims and attribute values, from their page. */
export const savePersonClaimsFromForm = async (admin: AdminUser, userId: string, form: FormData) =>
  attempt('claims_saved', async () => {
    const { db } = serverContext();
    const by = await byAdmin(admin);
    await updateProfileClaims(db, userId, readProfileClaims(form, true), 'admin', by);
    const keys = (await listAttributes(db)).map((a) => a.key);
    await setAttributeValues(db, userId, readAttributeValues(form, keys), 'admin', by);
  });
