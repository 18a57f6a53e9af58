/**
 * The discovery resources (RFC 7644 §4): ServiceProviderConfig (RFC 7643 §5), ResourceTypes (§6) and Schemas
 * (§7), saying exactly what Gatehouse keeps: the attributes lib/scim/users.ts and groups.ts map, PATCH, sorting,
 * filtering (at most MAX_RESULTS a page), ETags, password changes; no bulk operations.
 */
import { ScimError } from './errors.ts';
import { GROUP_SCHEMA, USER_SCHEMA } from './filter.ts';
import { MAX_RESULTS } from './resources.ts';

const SPC_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig';
const RESOURCE_TYPE_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ResourceType';
const SCHEMA_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Schema';

type Attribute = {
  name: string;
  type: 'string' | 'boolean' | 'complex' | 'reference' | 'dateTime';
  multiValued: boolean;
  description: string;
  required: boolean;
  caseExact: boolean;
  mutability: 'readOnly' | 'readWrite' | 'immutable' | 'writeOnly';
  returned: 'always' | 'never' | 'default' | 'request';
  uniqueness: 'none' | 'server' | 'global';
  subAttributes?: Attribute[];
  referenceTypes?: string[];
};

function attr(name: string, description: string, options: Partial<Attribute> = {}): Attribute {
  return {
    name,
    type: 'string',
    multiValued: false,
    description,
    required: false,
    caseExact: false,
    mutability: 'readWrite',
    returned: 'default',
    uniqueness: 'none',
    ...options,
  };
}

const multiValue = (what: string) => [
  attr('value', `The ${what}.`),
  attr('type', "Always 'work'.", { mutability: 'readOnly' }),
  attr('primary', 'Always true: Gatehouse keeps one.', { type: 'boolean', mutability: 'readOnly' }),
];

const userAttributes: Attribute[] = [
  attr('userName', 'The username people sign in with; unique, compared ignoring ASCII case.', { required: true, uniqueness: 'server' }),
  attr('name', "The person's name.", {
    type: 'complex',
    subAttributes: [
      attr('formatted', 'The full name (the same as displayName).'),
      attr('familyName', 'The family name (the family_name claim).'),
      attr('givenName', 'The given name (the given_name claim).'),
    ],
  }),
  attr('displayName', 'The name shown (the name claim).'),
  attr('emails', 'The one email address; a new one is unverified until the person proves it.', {
    multiValued: true,
    type: 'complex',
    subAttributes: multiValue('address'),
  }),
  attr('phoneNumbers', 'The one phone number, E.164 (the phone_number claim).', { multiValued: true, type: 'complex', subAttributes: multiValue('number') }),
  attr('locale', 'A BCP 47 language tag (the locale claim).'),
  attr('timezone', 'An IANA time zone (the zoneinfo claim).'),
  attr('active', 'False disables the person: their sessions and tokens end.', { type: 'boolean' }),
  attr('password', 'A new password; never returned.', { mutability: 'writeOnly', returned: 'never' }),
  attr('groups', "The groups the person is in; change them through the Group's members.", {
    type: 'complex',
    multiValued: true,
    mutability: 'readOnly',
    subAttributes: [
      attr('value', "The group's id.", { mutability: 'readOnly' }),
      attr('$ref', "The Group's URI.", { type: 'reference', referenceTypes: ['Group'], mutability: 'readOnly' }),
      attr('display', "The group's name.", { mutability: 'readOnly' }),
      attr('type', "Always 'direct'.", { mutability: 'readOnly' }),
    ],
  }),
];

const groupAttributes: Attribute[] = [
  attr('displayName', "The group's name, the value in the groups claim: letters, digits and . _ : - (not first).", { required: true, uniqueness: 'server' }),
  attr('members', 'The people in the group.', {
    type: 'complex',
    multiValued: true,
    subAttributes: [
      attr('value', "The User's id.", { mutability: 'immutable' }),
      attr('$ref', "The User's URI.", { type: 'reference', referenceTypes: ['User'], mutability: 'immutable' }),
      attr('display', "The User's userName.", { mutability: 'readOnly' }),
      attr('type', "Always 'User'.", { mutability: 'immutable' }),
    ],
  }),
];

export function schemas(baseUrl: string) {
  const schema = (id: string, name: string, description: string, attributes: Attribute[]) => ({
    schemas: [SCHEMA_SCHEMA],
    id,
    name,
    description,
    attributes,
    meta: { resourceType: 'Schema', location: `${baseUrl}/Schemas/${id}` },
  });
  return [schema(USER_SCHEMA, 'User', 'A person', userAttributes), schema(GROUP_SCHEMA, 'Group', 'A group of people', groupAttributes)];
}

export function resourceTypes(baseUrl: string) {
  const type = (id: string, endpoint: string, schema: string, description: string) => ({
    schemas: [RESOURCE_TYPE_SCHEMA],
    id,
    name: id,
    endpoint,
    description,
    schema,
    meta: { resourceType: 'ResourceType', location: `${baseUrl}/ResourceTypes/${id}` },
  });
  return [type('User', '/Users', USER_SCHEMA, 'A person who signs in with Gatehouse'), type('Group', '/Groups', GROUP_SCHEMA, 'A group of people')];
}

export function serviceProviderConfig(baseUrl: string) {
  return {
    schemas: [SPC_SCHEMA],
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: MAX_RESULTS },
    changePassword: { supported: true },
    sort: { supported: true },
    etag: { supported: true },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'Bearer token',
        description: 'A token an admin issues to the provisioning client (portal, CLI, admin API), sent as Authorization: Bearer.',
        primary: true,
      },
    ],
    meta: { resourceType: 'ServiceProviderConfig', location: `${baseUrl}/ServiceProviderConfig` },
  };
}

/** One of a list by its id (`/Schemas/{id}`, `/ResourceTypes/{id}`), or 404. */
export function byId<T extends { id: string }>(list: T[], id: string, what: string): T {
  const found = list.find((item) => item.id === id);
  if (!found) throw new ScimError(404, `no ${what} ${id}`);
  return found;
}

/** A list of discovery resources as a ListResponse (RFC 7644 §4: GET /Schemas and /ResourceTypes answer one). */
export function discoveryList(resources: object[]) {
  return {
    schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'],
    totalResults: resources.length,
    startIndex: 1,
    itemsPerPage: resources.length,
    Resources: resources,
  };
}
