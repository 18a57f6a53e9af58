/**
 * The connection form of the admin portal, as plain data: FormData in, the input of
 * `newConnectionSchema` (lib/federation/manage.ts, the one schema for the CLI, the admin API and the
 * portal) out. The client secret is write-only: the form's values never hold it, so it is never
 * rendered back into the page (an empty box on edit keeps the stored one).
 */
import type { ConnectionRecord } from '../../federation/repository.ts';
import type { NewConnectionInput } from '../../federation/manage.ts';
import { PRESETS, type Preset, presetFields } from '../../federation/presets.ts';
import type { FieldProblems } from '../../platform/forms.ts';

/** What the form shows: the schema's names, lists as the text the person typed (one per line). */
export interface ConnectionFormValues {
  kind: 'oidc' | 'oauth2';
  slug: string;
  displayName: string;
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  userinfoEndpoint: string;
  emailsEndpoint: string;
  clientId: string;
  scopes: string;
  /** `field=claim` per line. */
  claimMapping: string;
  clientIds: string;
  emailDomains: string;
  pkce: boolean;
  passLoginHint: boolean;
  jitCreate: boolean;
  jitState: 'enabled' | 'disabled';
  trustedForMfa: boolean;
  keepTokens: boolean;
  upstreamLogout: boolean;
  /** A file under public/connections/ (CONNECTION_ICONS), or '' for the name's initial. */
  icon: string;
  /** Whether a secret is stored (edit): the box then says "leave empty to keep it". */
  hasClientSecret: boolean;
}

/** The fields typed or chosen (the summary of problems lists them, in the form's order); then the switches. */
export const connectionInputFields = [
  'slug',
  'displayName',
  'icon',
  'kind',
  'issuer',
  'authorizationEndpoint',
  'tokenEndpoint',
  'userinfoEndpoint',
  'emailsEndpoint',
  'clientId',
  'clientSecret',
  'scopes',
  'claimMapping',
  'clientIds',
  'emailDomains',
] as const;
export const connectionFields = [
  ...connectionInputFields,
  'pkce',
  'passLoginHint',
  'jitCreate',
  'jitState',
  'trustedForMfa',
  'keepTokens',
  'upstreamLogout',
] as const;

/** The icons shipped under public/connections/ (the sign-in page loads no remote images). */
export const CONNECTION_ICONS = ['google.svg', 'microsoft.svg', 'github.svg', 'gitlab.svg', 'generic.svg'] as const;
export type ConnectionField = (typeof connectionFields)[number];
export type ConnectionFieldProblems = FieldProblems<ConnectionField>;

/** What /admin/connections/new offers first: the presets (lib/federation/presets.ts), then an empty form. */
export const CONNECTION_CHOICES = [...PRESETS, 'custom'] as const;
export type ConnectionChoice = (typeof CONNECTION_CHOICES)[number];
export const isConnectionChoice = (value: unknown): value is ConnectionChoice =>
  typeof value === 'string' && (CONNECTION_CHOICES as readonly string[]).includes(value);

const text = (form: FormData, name: string, max: number) => {
  const value = form.get(name);
  return typeof value === 'string' ? value.slice(0, max) : '';
};
const lines = (value: string) =>
  value
    .split(/[\r\n,]+/)
    .map((line) => line.trim())
    .filter(Boolean);
const orNull = (value: string) => value.trim() || null;

/** `field=claim` lines as the schema's object; a line without `=` is kept whole, for the schema to refuse. */
function claimMappingOf(value: string): Record<string, string> {
  return Object.fromEntries(
    lines(value).map((line) => {
      const at = line.indexOf('=');
      return at < 0 ? [line, ''] : [line.slice(0, at).trim(), line.slice(at + 1).trim()];
    }),
  );
}
const claimMappingText = (mapping: Record<string, string | undefined>) =>
  Object.entries(mapping)
    .filter(([, claim]) => claim)
    .map(([field, claim]) => `${field}=${claim}`)
    .join('\n');

/**
 * The form's values and the use case's input. `mode` edit leaves the slug out (it names the record) and
 * the secret out when its box is empty (the stored one stays).
 */
export function readConnectionForm(form: FormData, mode: 'create' | 'edit'): { values: ConnectionFormValues; input: NewConnectionInput } {
  const values: ConnectionFormValues = {
    kind: text(form, 'kind', 10) === 'oauth2' ? 'oauth2' : 'oidc',
    slug: text(form, 'slug', 100).trim(),
    displayName: text(form, 'displayName', 200),
    issuer: text(form, 'issuer', 2000),
    authorizationEndpoint: text(form, 'authorizationEndpoint', 2000),
    tokenEndpoint: text(form, 'tokenEndpoint', 2000),
    userinfoEndpoint: text(form, 'userinfoEndpoint', 2000),
    emailsEndpoint: text(form, 'emailsEndpoint', 2000),
    clientId: text(form, 'clientId', 600),
    scopes: text(form, 'scopes', 600),
    claimMapping: text(form, 'claimMapping', 2000),
    clientIds: text(form, 'clientIds', 20_000),
    emailDomains: text(form, 'emailDomains', 20_000),
    pkce: form.get('pkce') === 'on',
    passLoginHint: form.get('passLoginHint') === 'on',
    jitCreate: form.get('jitCreate') === 'on',
    jitState: text(form, 'jitState', 10) === 'disabled' ? 'disabled' : 'enabled',
    trustedForMfa: form.get('trustedForMfa') === 'on',
    keepTokens: form.get('keepTokens') === 'on',
    upstreamLogout: form.get('upstreamLogout') === 'on',
    icon: text(form, 'icon', 80),
    hasClientSecret: form.get('hasClientSecret') === 'on',
  };
  const secret = text(form, 'clientSecret', 2100);
  const oauth2 = values.kind === 'oauth2';
  const input: NewConnectionInput = {
    kind: values.kind,
    slug: values.slug,
    displayName: values.displayName,
    // Only the kind's own fields: an issuer left in the page while OAuth 2.0 is chosen is not stored.
    issuer: oauth2 ? null : orNull(values.issuer),
    authorizationEndpoint: oauth2 ? orNull(values.authorizationEndpoint) : null,
    tokenEndpoint: oauth2 ? orNull(values.tokenEndpoint) : null,
    userinfoEndpoint: oauth2 ? orNull(values.userinfoEndpoint) : null,
    emailsEndpoint: oauth2 ? orNull(values.emailsEndpoint) : null,
    clientId: values.clientId,
    ...(secret ? { clientSecret: secret } : mode === 'create' ? { clientSecret: null } : {}),
    scopes: values.scopes.trim().replace(/\s+/g, ' '),
    pkce: values.pkce,
    passLoginHint: values.passLoginHint,
    claimMapping: claimMappingOf(values.claimMapping),
    clientIds: lines(values.clientIds),
    emailDomains: lines(values.emailDomains),
    jitCreate: values.jitCreate,
    jitState: values.jitState,
    trustedForMfa: values.trustedForMfa,
    keepTokens: values.keepTokens,
    upstreamLogout: values.upstreamLogout,
    icon: orNull(values.icon),
  };
  return { values, input };
}

/** The form's starting values: empty, a preset's (filled in by lib/federation/presets.ts), or the connection being edited. */
export function connectionFormValues(from?: ConnectionRecord | Partial<NewConnectionInput>): ConnectionFormValues {
  const c = (from ?? {}) as Partial<ConnectionRecord>;
  return {
    kind: c.kind === 'oauth2' ? 'oauth2' : 'oidc',
    slug: c.slug ?? '',
    displayName: c.displayName ?? '',
    issuer: c.issuer ?? '',
    authorizationEndpoint: c.authorizationEndpoint ?? '',
    tokenEndpoint: c.tokenEndpoint ?? '',
    userinfoEndpoint: c.userinfoEndpoint ?? '',
    emailsEndpoint: c.emailsEndpoint ?? '',
    clientId: c.clientId ?? '',
    scopes: c.scopes ?? 'openid profile email',
    claimMapping: claimMappingText({ ...(c.claimMapping ?? {}) }),
    clientIds: (c.clientIds ?? []).join('\n'),
    emailDomains: (c.emailDomains ?? []).join('\n'),
    pkce: c.pkce ?? true,
    passLoginHint: c.passLoginHint ?? true,
    jitCreate: c.jitCreate ?? false,
    jitState: c.jitState === 'disabled' ? 'disabled' : 'enabled',
    trustedForMfa: c.trustedForMfa ?? false,
    keepTokens: c.keepTokens ?? false,
    upstreamLogout: c.upstreamLogout ?? false,
    icon: c.icon ?? '',
    hasClientSecret: c.hasClientSecret ?? false,
  };
}

/**
 * A preset's filled-in form; Microsoft Entra ID needs its tenant (`tenant`), without which (or with a
 * malformed one) there is nothing to fill in yet: `needsTenant`.
 */
export function presetFormValues(choice: ConnectionChoice, tenant?: string): ConnectionFormValues | 'needs_tenant' {
  if (choice === 'custom') return connectionFormValues({ icon: 'generic.svg' });
  try {
    return connectionFormValues(presetFields(choice as Preset, { tenant }));
  } catch {
    return 'needs_tenant';
  }
}
