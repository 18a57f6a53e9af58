'use client';
/**
 * The client registration form, for create and edit. Its action is a server
 * action validated by the shared registration schema; expected errors come
 * back as problem codes and show next to their fields, in the page's language
 * (the catalogs' admin.clientForm and problems). Works without JavaScript
 * (React renders the action's answer into the page), and holds no secret.
 * On create it is for one application kind (lib/surfaces/portal/client-presets.ts): only the fields that
 * kind can use are rendered, in sections, and the answer shows how to connect that kind of app.
 */
import { useTranslations } from 'next-intl';
import { type ReactNode, useActionState } from 'react';
import { fieldProblemTexts } from '@/lib/i18n/problems';
import { CONFIDENTIAL_ONLY, type ClientFieldProblems, type ClientFormValues, clientFields } from '@/lib/surfaces/portal/client-fields';
import { CLIENT_LAYOUTS, type ClientLayout } from '@/lib/surfaces/portal/client-presets';
import type { ClientFormState } from '@/lib/surfaces/portal/clients';
import { Created } from './created';
import { Quickstart } from './quickstart';
import { SecretReveal } from './secret-reveal';
import { border, ChoiceCard, describedBy, Errors, Field, inputLook, TextField } from '../ui/field';
import { ProblemSummary } from '../ui/problem-summary';
import { FormActions, focusRing } from '../ui/button';

/** The grants and scopes offered, in the order shown; their words are the catalogs' (scopes keep their protocol names as labels). */
const grantTypeValues = ['authorization_code', 'refresh_token', 'client_credentials', 'urn:ietf:params:oauth:grant-type:device_code'] as const;
const scopeValues = ['openid', 'profile', 'email', 'offline_access', 'introspect', 'admin'] as const;

type FieldName = keyof ClientFieldProblems;
/** The error summary's order: the form's own problems first, then the fields as the form shows them. */
const fields: FieldName[] = ['form', ...clientFields];

/**
 * Hidden while Public is chosen: CSS (:has) on the server-rendered form, so it
 * works without JavaScript; on edit the type is fixed and the server leaves
 * them out. readClientForm drops any left ticked.
 */
const confidentialOnly = 'group-has-[input[name=type][value=public]:checked]/client:hidden';

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

/** What a control inside its Field carries: its name, and its hint and errors wired to it. */
const wired = (id: string, errors?: string[]) => ({
  id,
  name: id,
  'aria-invalid': Boolean(errors?.length),
  'aria-describedby': describedBy(id, true, errors),
});

type ControlProps = { id: string; label: string; hint: string; errors?: string[]; value: string };

/** A list of URIs, one per line, in a monospaced box. */
function UriList({ id, label, hint, errors, value, rows, placeholder }: ControlProps & { rows: number; placeholder?: string }) {
  return (
    <Field id={id} label={label} hint={hint} errors={errors}>
      <textarea
        {...wired(id, errors)}
        rows={rows}
        spellCheck={false}
        defaultValue={value}
        placeholder={placeholder}
        className={`${inputLook} font-mono ${border(Boolean(errors?.length))}`}
      />
    </Field>
  );
}

function Select({ id, label, hint, errors, value, options }: ControlProps & { options: Array<[string, string]> }) {
  return (
    <Field id={id} label={label} hint={hint} errors={errors}>
      <select {...wired(id, errors)} defaultValue={value} className={`${inputLook} bg-white ${border(Boolean(errors?.length))}`}>
        {options.map(([option, text]) => (
          <option key={option} value={option}>
            {text}
          </option>
        ))}
      </select>
    </Field>
  );
}

/** A group of on/off settings (and the fields that go with them) under its legend. */
function Settings({ legend, children }: { legend: string; children: ReactNode }) {
  return (
    <fieldset className="space-y-3">
      <legend className="text-sm font-medium text-slate-800">{legend}</legend>
      {children}
    </fieldset>
  );
}

/** A titled group of the form's fields: the form reads as its sections rather than one long page. */
function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={`${id}-heading`} className="space-y-5 border-t border-slate-200 pt-6 first-of-type:border-0 first-of-type:pt-0">
      <h2 id={`${id}-heading`} className="text-base font-semibold text-slate-900">
        {title}
      </h2>
      {children}
    </section>
  );
}

export function ClientForm({
  action,
  initial,
  mode,
  cancelHref,
  layout = CLIENT_LAYOUTS.custom,
  issuer,
}: {
  action: (state: ClientFormState, form: FormData) => Promise<ClientFormState>;
  initial: ClientFormValues;
  mode: 'create' | 'edit';
  cancelHref: string;
  /** The application kind's fields (create); the whole form on edit. */
  layout?: ClientLayout;
  /** For the quickstart shown with the new client. */
  issuer?: string;
}) {
  const t = useTranslations('admin.clientForm');
  const sections = useTranslations('admin.clientSections');
  const problems = useTranslations('problems');
  const [state, formAction, pending] = useActionState(action, { status: 'editing', values: initial, problems: {} });
  const errors = state.status === 'editing' ? fieldProblemTexts(problems, state.problems) : {};
  const fieldNames = Object.fromEntries(fields.map((field) => [field, t(`fields.${field}`)])) as Record<FieldName, string>;
  const grantTypeOptions = grantTypeValues
    .filter((value) => layout.grantTypes.includes(value))
    .map((value) => ({ value, label: t(`grants.${value}.label`), hint: t(`grants.${value}.hint`) }));
  const scopeOptions = scopeValues.filter((value) => layout.scopes.includes(value)).map((value) => ({ value, hint: t(`scopeHints.${value}`) }));

  if (state.status === 'created') {
    const { client, clientSecret } = state;
    const heading = t('registered', { name: client.name });
    const reveal = clientSecret ? <SecretReveal heading={heading} clientId={client.id} clientSecret={clientSecret} /> : undefined;
    return (
      <div className="space-y-8">
        <Created heading={heading} reveal={reveal} href={`/admin/clients/${encodeURIComponent(client.id)}`} next={t('showClient')}>
          {t.rich('publicCreated', { id: client.id, code: (chunks) => <code className="font-mono">{chunks}</code> })}
        </Created>
        {issuer ? <Quickstart kind={client.kind} issuer={issuer} clientId={client.id} redirectUri={client.redirectUri} /> : null}
      </div>
    );
  }

  const v = state.values;
  // Editing a public client (its type is fixed): what it cannot have is not offered at all.
  const fixedPublic = (mode === 'edit' || layout.type !== undefined) && v.type === 'public';
  const chooseType = mode === 'create' && layout.type === undefined;
  const shown = <T extends { value: string }>(options: T[], only: readonly string[]) =>
    fixedPublic ? options.filter((o) => !only.includes(o.value)) : options;
  const typeName = v.type === 'public' ? t('public') : t('confidential');
  const select = (
    field: 'tokenEndpointAuthMethod' | 'idTokenSignedResponseAlg' | 'requestObjectSigningAlg' | 'subjectType' | 'adminRole',
    options: Array<[string, string]>,
  ) => <Select id={field} label={t(`fields.${field}`)} hint={t(`${field}Hint`)} errors={errors[field]} value={v[field]} options={options} />;
  const toggle = (
    name:
      | 'firstParty'
      | 'resourceServer'
      | 'adminApi'
      | 'requireSecondFactor'
      | 'backchannelLogoutSessionRequired'
      | 'requirePushedAuthorizationRequests'
      | 'dpopBoundAccessTokens',
    className?: string,
  ) => <Toggle key={name} className={className} name={name} label={t(`fields.${name}`)} hint={t(`${name}Hint`)} checked={v[name]} errors={errors[name]} />;
  const urlField = (field: 'backchannelLogoutUri' | 'sectorIdentifierUri') => (
    <TextField id={field} label={t(`fields.${field}`)} hint={t(`${field}Hint`)} errors={errors[field]} type="url" inputMode="url" defaultValue={v[field]} />
  );
  // The trust settings this kind can use; the confidential-only ones hide while Public is chosen.
  const trustToggles = [
    { name: 'firstParty' as const, show: layout.people },
    { name: 'resourceServer' as const, show: layout.resourceServer && layout.kind !== 'api' && !fixedPublic, className: confidentialOnly },
    { name: 'adminApi' as const, show: layout.adminApi && !fixedPublic, className: confidentialOnly },
  ].filter((setting) => setting.show);
  return (
    <form action={formAction} noValidate className="group/client space-y-8">
      <ProblemSummary errors={errors} names={fieldNames} />
      {mode === 'create' ? <input type="hidden" name="kind" value={layout.kind} /> : null}

      <Section id="client-app" title={sections('application')}>
        <TextField id="name" label={t('fields.name')} hint={t('nameHint')} errors={errors.name} required maxLength={128} defaultValue={v.name} />

        {chooseType ? (
          <fieldset>
            <legend className="text-sm font-medium text-slate-800">{t('type')}</legend>
            <div className="mt-2 grid gap-2 sm:grid-cols-2">
              {[
                { value: 'confidential', label: t('confidential'), hint: t('confidentialHint') },
                { value: 'public', label: t('public'), hint: t('publicHint') },
              ].map((o) => (
                <ChoiceCard key={o.value} type="radio" name="type" value={o.value} defaultChecked={v.type === o.value} label={o.label} hint={o.hint} />
              ))}
            </div>
          </fieldset>
        ) : (
          <p className="text-sm text-slate-600">
            {mode === 'edit'
              ? t.rich('fixedType', { type: typeName, strong: (chunks) => <strong className="text-slate-900">{chunks}</strong> })
              : sections.rich('presetType', { type: typeName, strong: (chunks) => <strong className="text-slate-900">{chunks}</strong> })}
          </p>
        )}
        {/* What Public means for the rest of the form: shown when it is chosen (CSS :has, without JavaScript) or fixed. */}
        <p
          className={`rounded-lg border border-slate-200 bg-slate-50 px-3 py-2 text-sm text-slate-700 ${
            fixedPublic ? '' : chooseType ? 'hidden group-has-[input[name=type][value=public]:checked]/client:block' : 'hidden'
          }`}
        >
          {sections('publicNote')}
        </p>

        {layout.people ? (
          <TextField id="logoUri" label={t('logoUri')} hint={t('logoUriHint')} errors={errors.logoUri} type="url" inputMode="url" defaultValue={v.logoUri} />
        ) : null}
      </Section>

      {layout.redirects ? (
        <Section id="client-redirects" title={sections('redirects')}>
          <UriList
            id="redirectUris"
            label={t('fields.redirectUris')}
            hint={layout.nativeRedirects ? sections('nativeRedirectsHint') : t('redirectUrisHint')}
            errors={errors.redirectUris}
            rows={3}
            value={v.redirectUris}
            placeholder={layout.nativeRedirects ? 'com.example.app:/callback' : undefined}
          />
          <UriList
            id="postLogoutRedirectUris"
            label={t('fields.postLogoutRedirectUris')}
            hint={t('postLogoutRedirectUrisHint')}
            errors={errors.postLogoutRedirectUris}
            rows={2}
            value={v.postLogoutRedirectUris}
          />
        </Section>
      ) : null}

      <Section id="client-tokens" title={sections('tokens')}>
        {(
          [
            ['grantTypes', t('fields.grantTypes'), grantTypeOptions],
            ['scopes', t('allowedScopes'), scopeOptions],
          ] as const
        ).map(([name, legend, options]) => (
          <div key={name} id={name}>
            <Choices
              legend={legend}
              name={name}
              options={shown<{ value: string; label?: string; hint: string }>(options, CONFIDENTIAL_ONLY[name])}
              only={CONFIDENTIAL_ONLY[name]}
              checked={v[name]}
              errors={errors[name]}
            />
          </div>
        ))}
        {fixedPublic || !layout.authMethod ? null : (
          <div className={confidentialOnly}>
            {select('tokenEndpointAuthMethod', [
              ['', t('authDefault')],
              ['client_secret_basic', t('authBasic')],
              ['client_secret_post', t('authPost')],
            ])}
          </div>
        )}
        {layout.people
          ? select('idTokenSignedResponseAlg', [
              ['ES256', t('algES256')],
              ['RS256', t('algRS256')],
            ])
          : null}
      </Section>

      {trustToggles.length || layout.people ? (
        <Section id="client-trust" title={sections('trust')}>
          <Settings legend={t('trust')}>{trustToggles.map(({ name, className }) => toggle(name, className))}</Settings>
          {layout.adminApi && !fixedPublic ? (
            <div className={confidentialOnly}>
              {select(
                'adminRole',
                (['owner', 'admin', 'user_manager', 'auditor'] as const).map((role) => [role, t(`adminRoles.${role}`)]),
              )}
            </div>
          ) : null}
          {layout.people ? (
            <>
              <Settings legend={t('signIn')}>{toggle('requireSecondFactor')}</Settings>
              <Settings legend={t('logout')}>
                {urlField('backchannelLogoutUri')}
                {toggle('backchannelLogoutSessionRequired')}
              </Settings>
            </>
          ) : null}
        </Section>
      ) : null}

      {layout.people ? (
        <Section id="client-protocol" title={t('protocol')}>
          {toggle('requirePushedAuthorizationRequests')}
          {toggle('dpopBoundAccessTokens')}
          {select('requestObjectSigningAlg', [
            ['', t('requestObjectUnsigned')],
            ['ES256', 'ES256'],
            ['PS256', 'PS256'],
            ['RS256', 'RS256'],
            ['EdDSA', 'EdDSA'],
          ])}
          <UriList id="jwks" label={t('fields.jwks')} hint={t('jwksHint')} errors={errors.jwks} rows={4} value={v.jwks} />
          {select('subjectType', [
            ['public', t('subjectPublic')],
            ['pairwise', t('subjectPairwise')],
          ])}
          {urlField('sectorIdentifierUri')}
        </Section>
      ) : null}

      <FormActions submit={mode === 'create' ? t('submitCreate') : t('submitEdit')} pending={pending} pendingLabel={t('pending')} cancelHref={cancelHref} />
    </form>
  );
}
