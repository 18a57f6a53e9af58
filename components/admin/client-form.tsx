'use client';
/**
 * The client registration form, for create and edit. Its action is a server
 * action validated by the shared registration schema; expected errors come
 * back as values and show next to their fields. Works without JavaScript
 * (React renders the action's answer into the page), and holds no secret.
 */
import { useActionState } from 'react';
import { CONFIDENTIAL_ONLY, type ClientFormValues, type FieldErrors } from '@/lib/services/portal/client-form';
import type { ClientFormState } from '@/lib/services/portal/clients';
import { Created } from './created';
import { SecretReveal } from './secret-reveal';
import { border, ChoiceCard, describedBy, Errors, Field, inputLook } from '../ui/field';
import { ProblemSummary } from '../ui/problem-summary';
import { FormActions, focusRing } from '../ui/button';

const grantTypeOptions = [
  { value: 'authorization_code', label: 'Authorization code', hint: 'People sign in through the browser (with PKCE).' },
  { value: 'refresh_token', label: 'Refresh token', hint: 'Stay signed in; needs the authorization code grant.' },
  { value: 'client_credentials', label: 'Client credentials', hint: 'The app calls APIs as itself; confidential clients only.' },
];

const scopeOptions = [
  { value: 'openid', hint: 'Sign people in (ID token).' },
  { value: 'profile', hint: 'Name and username.' },
  { value: 'email', hint: 'Email address.' },
  { value: 'offline_access', hint: 'Refresh tokens while the person is away.' },
  { value: 'introspect', hint: "A resource server checks tokens at /oauth/introspect with it; client credentials only, never in a person's token." },
  { value: 'admin', hint: 'Call the admin API (/api/admin); admin-API clients with client credentials only.' },
];

/**
 * Hidden while Public is chosen: CSS (:has) on the server-rendered form, so it
 * works without JavaScript; on edit the type is fixed and the server leaves
 * them out. readClientForm drops any left ticked.
 */
const confidentialOnly = 'group-has-[input[name=type][value=public]:checked]/client:hidden';

const fieldNames: Record<keyof FieldErrors, string> = {
  form: 'Form',
  name: 'Name',
  type: 'Client type',
  redirectUris: 'Redirect URIs',
  postLogoutRedirectUris: 'Post-logout redirect URIs',
  grantTypes: 'Grant types',
  scopes: 'Scopes',
  tokenEndpointAuthMethod: 'Token endpoint authentication',
  logoUri: 'Logo URI',
  firstParty: 'First party',
  resourceServer: 'Resource server',
  adminApi: 'Admin API',
  idTokenSignedResponseAlg: 'ID token signing algorithm',
  requireSecondFactor: 'Require a second factor',
};

function Choices({
  legend,
  name,
  options,
  checked,
  errors,
  hint,
  only,
}: {
  legend: string;
  name: string;
  options: Array<{ value: string; label?: string; hint: string }>;
  checked: string[];
  errors?: string[];
  hint?: string;
  /** The values only a confidential client is offered. */
  only: readonly string[];
}) {
  return (
    <fieldset aria-describedby={errors?.length ? `${name}-error` : undefined}>
      <legend className="text-sm font-medium text-slate-800">{legend}</legend>
      {hint ? <p className="mt-0.5 text-sm text-slate-500">{hint}</p> : null}
      <div className="mt-2 grid gap-2 sm:grid-cols-2">
        {options.map((o) => (
          <div key={o.value} className={only.includes(o.value) ? confidentialOnly : undefined}>
            <ChoiceCard
              type="checkbox"
              name={name}
              value={o.value}
              defaultChecked={checked.includes(o.value)}
              label={o.label ?? <code>{o.value}</code>}
              hint={o.hint}
            />
          </div>
        ))}
      </div>
      <Errors id={`${name}-error`} messages={errors} />
    </fieldset>
  );
}

function Toggle({
  name,
  label,
  hint,
  checked,
  errors,
  className,
}: {
  name: string;
  label: string;
  hint: string;
  checked: boolean;
  errors?: string[];
  className?: string;
}) {
  return (
    <div className={className}>
      <label className="flex gap-3 text-sm">
        <input
          id={name}
          type="checkbox"
          name={name}
          defaultChecked={checked}
          aria-invalid={!!errors?.length}
          aria-describedby={errors?.length ? `${name}-error` : undefined}
          className={`mt-0.5 size-4 accent-indigo-600 ${focusRing}`}
        />
        <span>
          <span className="font-medium text-slate-900">{label}</span>
          <span className="block text-slate-500">{hint}</span>
        </span>
      </label>
      <Errors id={`${name}-error`} messages={errors} />
    </div>
  );
}

export function ClientForm({
  action,
  initial,
  mode,
  cancelHref,
}: {
  action: (state: ClientFormState, form: FormData) => Promise<ClientFormState>;
  initial: ClientFormValues;
  mode: 'create' | 'edit';
  cancelHref: string;
}) {
  const [state, formAction, pending] = useActionState(action, { status: 'editing', values: initial, errors: {} });
  const errors = state.status === 'editing' ? state.errors : {};

  if (state.status === 'created') {
    const { client, clientSecret } = state;
    const heading = `${client.name} is registered`;
    const reveal = clientSecret ? <SecretReveal heading={heading} clientId={client.id} clientSecret={clientSecret} /> : undefined;
    return (
      <Created heading={heading} reveal={reveal} href={`/admin/clients/${encodeURIComponent(client.id)}`} next="I have copied it — show the client">
        Public client: no secret. Client ID <code className="font-mono">{client.id}</code>
      </Created>
    );
  }

  const v = state.values;
  // Editing a public client (its type is fixed): what it cannot have is not offered at all.
  const fixedPublic = mode === 'edit' && v.type === 'public';
  const shown = <T extends { value: string }>(options: T[], only: readonly string[]) =>
    fixedPublic ? options.filter((o) => !only.includes(o.value)) : options;
  return (
    <form action={formAction} noValidate className="group/client space-y-8">
      <ProblemSummary errors={errors} names={fieldNames} />

      <section className="space-y-5">
        <Field id="name" label="Name" hint="Shown to people on the sign-in and consent screens." errors={errors.name}>
          <input
            id="name"
            name="name"
            required
            maxLength={128}
            defaultValue={v.name}
            aria-invalid={!!errors.name}
            aria-describedby={describedBy('name', true, errors.name)}
            className={`${inputLook} ${border(!!errors.name)}`}
          />
        </Field>

        {mode === 'create' ? (
          <fieldset>
            <legend className="text-sm font-medium text-slate-800">Client type</legend>
            <div className="mt-2 grid gap-2 sm:grid-cols-2">
              {[
                { value: 'confidential', label: 'Confidential', hint: 'A server-side app that can keep a secret.' },
                { value: 'public', label: 'Public', hint: 'A browser or native app: no secret, PKCE only.' },
              ].map((o) => (
                <ChoiceCard key={o.value} type="radio" name="type" value={o.value} defaultChecked={v.type === o.value} label={o.label} hint={o.hint} />
              ))}
            </div>
          </fieldset>
        ) : (
          <p className="text-sm text-slate-600">
            Client type: <strong className="text-slate-900">{v.type === 'public' ? 'Public' : 'Confidential'}</strong> (fixed after registration)
          </p>
        )}
      </section>

      <section className="space-y-5">
        <Field
          id="redirectUris"
          label="Redirect URIs"
          hint="One per line, matched exactly. https, or http only on localhost, 127.0.0.1 and [::1]; no fragments."
          errors={errors.redirectUris}
        >
          <textarea
            id="redirectUris"
            name="redirectUris"
            rows={3}
            spellCheck={false}
            defaultValue={v.redirectUris}
            aria-invalid={!!errors.redirectUris}
            aria-describedby={describedBy('redirectUris', true, errors.redirectUris)}
            className={`${inputLook} font-mono ${border(!!errors.redirectUris)}`}
          />
        </Field>
        <Field
          id="postLogoutRedirectUris"
          label="Post-logout redirect URIs"
          hint="Where sign-out may send people back to. One per line."
          errors={errors.postLogoutRedirectUris}
        >
          <textarea
            id="postLogoutRedirectUris"
            name="postLogoutRedirectUris"
            rows={2}
            spellCheck={false}
            defaultValue={v.postLogoutRedirectUris}
            aria-invalid={!!errors.postLogoutRedirectUris}
            aria-describedby={describedBy('postLogoutRedirectUris', true, errors.postLogoutRedirectUris)}
            className={`${inputLook} font-mono ${border(!!errors.postLogoutRedirectUris)}`}
          />
        </Field>
      </section>

      <section className="space-y-6">
        <div id="grantTypes">
          <Choices
            legend="Grant types"
            name="grantTypes"
            options={shown(grantTypeOptions, CONFIDENTIAL_ONLY.grantTypes)}
            only={CONFIDENTIAL_ONLY.grantTypes}
            checked={v.grantTypes}
            errors={errors.grantTypes}
          />
        </div>
        <div id="scopes">
          <Choices
            legend="Allowed scopes"
            name="scopes"
            options={shown(scopeOptions, CONFIDENTIAL_ONLY.scopes)}
            only={CONFIDENTIAL_ONLY.scopes}
            checked={v.scopes}
            errors={errors.scopes}
          />
        </div>
        {fixedPublic ? null : (
          <div className={confidentialOnly}>
            <Field
              id="tokenEndpointAuthMethod"
              label="Token endpoint authentication"
              hint="How the client proves who it is at /oauth/token."
              errors={errors.tokenEndpointAuthMethod}
            >
              <select
                id="tokenEndpointAuthMethod"
                name="tokenEndpointAuthMethod"
                defaultValue={v.tokenEndpointAuthMethod}
                aria-invalid={!!errors.tokenEndpointAuthMethod}
                aria-describedby={describedBy('tokenEndpointAuthMethod', true, errors.tokenEndpointAuthMethod)}
                className={`${inputLook} bg-white ${border(!!errors.tokenEndpointAuthMethod)}`}
              >
                <option value="">Default (client_secret_basic)</option>
                <option value="client_secret_basic">client_secret_basic (HTTP Basic)</option>
                <option value="client_secret_post">client_secret_post (in the form body)</option>
              </select>
            </Field>
          </div>
        )}
        <Field
          id="idTokenSignedResponseAlg"
          label="ID token signing algorithm"
          hint="RS256 for relying parties that accept only RS256, e.g. next-auth v4 without configuration."
          errors={errors.idTokenSignedResponseAlg}
        >
          <select
            id="idTokenSignedResponseAlg"
            name="idTokenSignedResponseAlg"
            defaultValue={v.idTokenSignedResponseAlg}
            aria-invalid={!!errors.idTokenSignedResponseAlg}
            aria-describedby={describedBy('idTokenSignedResponseAlg', true, errors.idTokenSignedResponseAlg)}
            className={`${inputLook} bg-white ${border(!!errors.idTokenSignedResponseAlg)}`}
          >
            <option value="ES256">ES256 (ECDSA P-256, the default)</option>
            <option value="RS256">RS256 (RSA)</option>
          </select>
        </Field>
      </section>

      <section className="space-y-5">
        <Field id="logoUri" label="Logo URI (optional)" hint="An https URL of a logo for the consent screen." errors={errors.logoUri}>
          <input
            id="logoUri"
            name="logoUri"
            type="url"
            inputMode="url"
            defaultValue={v.logoUri}
            aria-invalid={!!errors.logoUri}
            aria-describedby={describedBy('logoUri', true, errors.logoUri)}
            className={`${inputLook} ${border(!!errors.logoUri)}`}
          />
        </Field>
        <fieldset className="space-y-3">
          <legend className="text-sm font-medium text-slate-800">Trust</legend>
          <Toggle
            name="firstParty"
            label="First party"
            hint="Your organisation's own app: people are never asked for consent."
            checked={v.firstParty}
            errors={errors.firstParty}
          />
          <Toggle
            className={confidentialOnly}
            name="resourceServer"
            label="Resource server"
            hint="An API that may introspect any token; confidential clients only (its secret, or its client-credentials token with the introspect scope)."
            checked={v.resourceServer}
            errors={errors.resourceServer}
          />
          <Toggle
            className={confidentialOnly}
            name="adminApi"
            label="Admin API"
            hint="Automation that may manage Gatehouse through /api/admin (with the admin scope, client credentials only)."
            checked={v.adminApi}
            errors={errors.adminApi}
          />
        </fieldset>
        <fieldset className="space-y-3">
          <legend className="text-sm font-medium text-slate-800">Sign-in</legend>
          <Toggle
            name="requireSecondFactor"
            label="Require a second factor"
            hint="Every sign-in to this app ends with the person's second factor (acr urn:gatehouse:acr:mfa); people without one cannot sign in to it."
            checked={v.requireSecondFactor}
            errors={errors.requireSecondFactor}
          />
        </fieldset>
      </section>

      <FormActions submit={mode === 'create' ? 'Register client' : 'Save changes'} pending={pending} pendingLabel="Saving…" cancelHref={cancelHref} />
    </form>
  );
}
