/**
 * The admin API's side of claims: custom user attributes, a person's values of them, and the clients' claim
 * mappings. The use cases of lib/claims/attributes.ts (the ones the portal and the CLI use) validate and record each
 * change in the audit log, as done by the caller.
 */
import 'server-only';
import * as claims from '../../claims/attributes.ts';
import { findClient } from '../../clients/repository.ts';
import type { Database } from '../../db/database.ts';
import { NotFound } from '../../platform/errors.ts';
import { existingUser } from '../../users/manage.ts';
import { attributeToWire, mappingToWire } from './dto/claims.ts';
import { operations } from './operations.ts';
import { endpoint } from './route.ts';

export const listAttributes = endpoint(operations.listAttributes, async ({ db }) => ({ data: (await claims.listAttributes(db)).map(attributeToWire) }));

export const createAttribute = endpoint(operations.createAttribute, async ({ db, body, by }) =>
  attributeToWire(await claims.createAttribute(db, { key: body.key, name: body.name, type: body.type, editableBy: body.editable_by }, by)),
);

export const deleteAttribute = endpoint(operations.deleteAttribute, async ({ db, params, by }) => {
  await claims.deleteAttribute(db, params.key, by);
});

export const getUserAttributes = endpoint(operations.getUserAttributes, async ({ db, params }) => {
  await existingUser(db, params.id);
  return { data: await claims.valuesOf(db, params.id) };
});

export const setUserAttribute = endpoint(operations.setUserAttribute, async ({ db, params, body, by }) => {
  const text = body.value === null ? '' : String(body.value);
  return { data: await claims.setAttributeValues(db, params.id, { [params.key]: text }, 'admin', by) };
});

async function mappingsOut(db: Database, clientId: string) {
  if (!(await findClient(db, clientId))) throw new NotFound(`no client ${clientId}`);
  return { data: (await claims.listMappings(db, clientId)).map(mappingToWire) };
}

export const listClaimMappings = endpoint(operations.listClaimMappings, async ({ db, params }) => mappingsOut(db, params.id));

export const mapClaim = endpoint(operations.mapClaim, async ({ db, params, body, by }) => {
  await claims.mapClaim(db, params.id, { claim: params.claim, attribute: body.attribute }, by);
  return mappingsOut(db, params.id);
});

export const unmapClaim = endpoint(operations.unmapClaim, async ({ db, params, by }) => {
  await claims.unmapClaim(db, params.id, params.claim, by);
  return mappingsOut(db, params.id);
});
