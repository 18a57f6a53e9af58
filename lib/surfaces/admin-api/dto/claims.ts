/**
 * Custom user attributes and the clients' claim mappings on the wire (lib/claims). The request bodies reuse the use
 * cases' own rules (lib/claims/attributes.ts).
 */
import { z } from 'zod';
import { ATTRIBUTE_TYPES, EDITORS } from '../../../claims/repository.ts';
import type { AttributeRecord, ClaimMappingRecord } from '../../../claims/repository.ts';
import { attributeKeySchema } from '../../../claims/attributes.ts';
import { iso, pathId, timestamp } from './common.ts';

export const attributeSchema = z
  .strictObject({
    key: z.string().meta({ description: "What a claim mapping names, and the field of a person's values." }),
    name: z.string(),
    type: z.enum(ATTRIBUTE_TYPES),
    editable_by: z.enum(EDITORS).meta({ description: 'user: the person may change their own value on /account too; admin: only admins.' }),
    created_at: timestamp,
  })
  .meta({ id: 'Attribute' });

export const attributeListSchema = z.strictObject({ data: z.array(attributeSchema) });

export const newAttributeBodySchema = z.strictObject({
  key: attributeKeySchema,
  name: z.string().trim().min(1).max(100),
  type: z.enum(ATTRIBUTE_TYPES).optional().meta({ description: 'Default string.' }),
  editable_by: z.enum(EDITORS).optional().meta({ description: 'Default admin.' }),
});

const attributeValue = z.union([z.string(), z.number(), z.boolean()]);

export const attributeValuesSchema = z
  .strictObject({
    data: z.record(z.string(), attributeValue).meta({ description: "The person's values by attribute key; attributes without a value are left out." }),
  })
  .meta({ id: 'AttributeValues' });

export const attributeValueBodySchema = z.strictObject({
  value: z
    .union([z.string().max(500), z.number(), z.boolean(), z.null()])
    .meta({ description: "The attribute's type: a number or boolean as JSON or as text; null or an empty string removes the value." }),
});

export const claimMappingListSchema = z
  .strictObject({ data: z.array(z.strictObject({ claim: z.string(), attribute: z.string().meta({ description: "The attribute's key." }) })) })
  .meta({ id: 'ClaimMappings' });

export const claimMappingBodySchema = z.strictObject({ attribute: attributeKeySchema });

export const attributeKeyParam = z.strictObject({ key: pathId(64).meta({ description: "The attribute's key." }) });

export const attributeToWire = (attribute: AttributeRecord) => ({
  key: attribute.key,
  name: attribute.name,
  type: attribute.type,
  editable_by: attribute.editableBy,
  created_at: iso(attribute.createdAt),
});

export const mappingToWire = (mapping: ClaimMappingRecord) => ({ claim: mapping.claim, attribute: mapping.attribute });
