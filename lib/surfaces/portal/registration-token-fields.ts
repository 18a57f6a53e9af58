/**
 * The portal's form for an initial access token (lib/registration/tokens.ts): what the boxes hold, read back
 * into the use case's input. Hosts are one a line (or separated by commas or spaces); grant types and scopes
 * are checkboxes. Shared by the page (values to show again) and the server action.
 */
import { type InitialAccessTokenInput, initialAccessTokenSchema, REGISTRABLE_GRANT_TYPES, REGISTRABLE_SCOPES } from '../../registration/tokens.ts';
import { formText } from '../../platform/forms.ts';

export const REGISTRATION_TOKEN_FIELDS = ['name', 'maxClients', 'expiresInDays', 'redirectHosts', 'grantTypes', 'scopes', 'requireApproval'] as const;
export type RegistrationTokenField = (typeof REGISTRATION_TOKEN_FIELDS)[number];

export interface RegistrationTokenFormValues {
  name: string;
  maxClients: string;
  expiresInDays: string;
  redirectHosts: string;
  grantTypes: string[];
  scopes: string[];
  requireApproval: boolean;
}

const defaults = initialAccessTokenSchema.omit({ name: true }).parse({});

/** The form's first state: the use case's defaults, as its schema gives them. */
export const NEW_REGISTRATION_TOKEN: RegistrationTokenFormValues = {
  name: '',
  maxClients: String(defaults.maxClients),
  expiresInDays: String(defaults.expiresInDays),
  redirectHosts: defaults.redirectHosts.join('\n'),
  grantTypes: defaults.grantTypes,
  scopes: defaults.scopes,
  requireApproval: defaults.requireApproval,
};

const checked = (form: FormData, name: string, allowed: readonly string[]) =>
  form
    .getAll(name)
    .filter((v): v is string => typeof v === 'string')
    .filter((v) => allowed.includes(v));

/** What was typed, to show again, and the use case's input made of it. */
export function readRegistrationTokenForm(form: FormData): { values: RegistrationTokenFormValues; input: InitialAccessTokenInput } {
  const values: RegistrationTokenFormValues = {
    name: formText(form, 'name', 200),
    maxClients: formText(form, 'maxClients', 10).trim(),
    expiresInDays: formText(form, 'expiresInDays', 10).trim(),
    redirectHosts: formText(form, 'redirectHosts', 5000),
    grantTypes: checked(form, 'grantTypes', REGISTRABLE_GRANT_TYPES),
    scopes: checked(form, 'scopes', REGISTRABLE_SCOPES),
    requireApproval: form.get('requireApproval') === 'on',
  };
  return {
    values,
    input: {
      name: values.name,
      maxClients: values.maxClients || undefined,
      expiresInDays: values.expiresInDays || undefined,
      redirectHosts: values.redirectHosts.split(/[\s,]+/).filter(Boolean),
      grantTypes: values.grantTypes as InitialAccessTokenInput['grantTypes'],
      scopes: values.scopes,
      requireApproval: values.requireApproval,
    },
  };
}
