'use client';
/**
 * The connection form, for create and edit. Its action is a server action validated by the one
 * connection schema (lib/federation/manage.ts); expected errors come back as problem codes next to
 * their fields, in the page's language (admin.connectionForm, problems). Works without JavaScript: the
 * kind's fields show and hide with CSS (:has). The client secret box is write-only: it is never filled
 * in, and left empty on edit it keeps the stored secret.
 */
import { useTranslations } from 'next-intl';
import { type ReactNode, useActionState } from 'react';
import { fieldProblemTexts } from '@/lib/i18n/problems';
import { CONNECTION_ICONS, connectionInputFields, type ConnectionField, type ConnectionFormValues } from '@/lib/surfaces/portal/connection-fields';
import type { ConnectionFormState } from '@/lib/surfaces/portal/connections';
import { border, ChoiceCard, describedBy, Field, inputLook, TextField } from '../ui/field';
import { ProblemSummary } from '../ui/problem-summary';
import { FormActions, focusRing } from '../ui/button';

/** The summary's order, as the form shows them. */
const shownFields = connectionInputFields;

const oidcOnly = 'group-has-[input[name=kind][value=oauth2]:checked]/connection:hidden';
const oauth2Only = 'hidden group-has-[input[name=kind][value=oauth2]:checked]/connection:block';

function Section({ id, title, className = '', children }: { id: string; title: string; className?: string; children: ReactNode }) {
  return (
    <section aria-labelledby={`${id}-heading`} className={`space-y-5 border-t border-slate-200 pt-6 first-of-type:border-0 first-of-type:pt-0 ${className}`}>
      <h2 id={`${id}-heading`} className="text-base font-semibold text-slate-900">
        {title}
      </h2>
      {children}
    </section>
  );
}

function Lines({ id, label, hint, errors, value }: { id: string; label: string; hint: string; errors?: string[]; value: string }) {
  return (
    <Field id={id} label={label} hint={hint} errors={errors}>
      <textarea
        id={id}
        name={id}
        rows={3}
        spellCheck={false}
        defaultValue={value}
        aria-invalid={Boolean(errors?.length) || undefined}
        aria-describedby={describedBy(id, true, errors)}
        className={`${inputLook} font-mono ${border(Boolean(errors?.length))}`}
      />
    </Field>
  );
}

function Toggle({ name, label, hint, checked }: { name: string; label: string; hint: string; checked: boolean }) {
  return (
    <label className="flex gap-3 text-sm">
      <input id={name} type="checkbox" name={name} defaultChecked={checked} className={`mt-0.5 size-4 accent-indigo-600 ${focusRing}`} />
      <span>
        <span className="font-medium text-slate-900">{label}</span>
        <span className="block text-slate-600">{hint}</span>
      </span>
    </label>
  );
}

export function ConnectionForm({
  action,
  initial,
  mode,
  cancelHref,
  callbackUrl,
}: {
  action: (state: ConnectionFormState, form: FormData) => Promise<ConnectionFormState>;
  initial: ConnectionFormValues;
  mode: 'create' | 'edit';
  cancelHref: string;
  /** What to register at the provider as the redirect URI. */
  callbackUrl: string;
}) {
  const t = useTranslations('admin.connectionForm');
  const problems = useTranslations('problems');
  const [state, formAction, pending] = useActionState(action, { status: 'editing', values: initial, problems: {} });
  const editing = state.status === 'editing' ? state : { values: initial, problems: {} };
  const errors = fieldProblemTexts(problems, editing.problems);
  const v = editing.values;
  const names = Object.fromEntries((['form', ...shownFields] as const).map((field) => [field, t(`fields.${field}`)])) as Record<
    ConnectionField | 'form',
    string
  >;
  const text = (id: (typeof shownFields)[number], extra: { hint?: string; type?: string; className?: string; required?: boolean } = {}) => (
    <div className={extra.className}>
      <TextField
        id={id}
        label={t(`fields.${id}`)}
        hint={extra.hint}
        errors={errors[id]}
        type={extra.type ?? 'text'}
        required={extra.required}
        spellCheck={false}
        defaultValue={String(v[id as keyof ConnectionFormValues] ?? '')}
      />
    </div>
  );

  return (
    <form action={formAction} noValidate className="group/connection space-y-8">
      <ProblemSummary errors={errors} names={names} />
      {v.hasClientSecret ? <input type="hidden" name="hasClientSecret" value="on" /> : null}

      <Section id="connection-provider" title={t('provider')}>
        {text('displayName', { hint: t('displayNameHint'), required: true })}
        <Field id="icon" label={t('fields.icon')} hint={t('iconHint')} errors={errors.icon}>
          <select
            id="icon"
            name="icon"
            defaultValue={v.icon}
            aria-describedby="icon-hint"
            className={`${inputLook} bg-white ${border(Boolean(errors.icon?.length))}`}
          >
            <option value="">{t('iconInitial')}</option>
            {CONNECTION_ICONS.map((icon) => (
              <option key={icon} value={icon}>
                {t(`icons.${icon.replace('.svg', '') as 'generic'}`)}
              </option>
            ))}
          </select>
        </Field>
        {mode === 'create' ? (
          text('slug', { hint: t('slugHint'), required: true })
        ) : (
          <p className="text-sm text-slate-600">{t.rich('fixedSlug', { slug: v.slug, code: (chunks) => <code className="font-mono">{chunks}</code> })}</p>
        )}
        <fieldset>
          <legend className="text-sm font-medium text-slate-800">{t('fields.kind')}</legend>
          <div className="mt-2 grid gap-2 sm:grid-cols-2">
            {(['oidc', 'oauth2'] as const).map((kind) => (
              <ChoiceCard
                key={kind}
                type="radio"
                name="kind"
                value={kind}
                defaultChecked={v.kind === kind}
                label={t(`kinds.${kind}`)}
                hint={t(`kinds.${kind}Hint`)}
              />
            ))}
          </div>
        </fieldset>
        {text('issuer', { hint: t('issuerHint'), type: 'url', className: oidcOnly })}
        <div className={`space-y-5 ${oauth2Only}`}>
          {text('authorizationEndpoint', { type: 'url' })}
          {text('tokenEndpoint', { type: 'url' })}
          {text('userinfoEndpoint', { type: 'url' })}
          {text('emailsEndpoint', { type: 'url', hint: t('emailsEndpointHint') })}
        </div>
        <p className="rounded-lg border border-slate-200 bg-slate-50 px-3 py-2 text-sm text-slate-700">
          {t.rich('callback', { url: callbackUrl, code: (chunks) => <code className="font-mono break-all">{chunks}</code> })}
        </p>
        {text('clientId', { required: true })}
        <TextField
          id="clientSecret"
          label={t('fields.clientSecret')}
          hint={v.hasClientSecret ? t('clientSecretKeepHint') : t('clientSecretHint')}
          errors={errors.clientSecret}
          type="password"
          // new-password: a browser would otherwise fill in the admin's own saved password here.
          autoComplete="new-password"
          defaultValue=""
        />
        {text('scopes', { hint: t('scopesHint') })}
        <Lines id="claimMapping" label={t('fields.claimMapping')} hint={t('claimMappingHint')} errors={errors.claimMapping} value={v.claimMapping} />
        <Toggle name="pkce" label={t('pkce')} hint={t('pkceHint')} checked={v.pkce} />
        <Toggle name="passLoginHint" label={t('passLoginHint')} hint={t('passLoginHintHint')} checked={v.passLoginHint} />
      </Section>

      <Section id="connection-where" title={t('where')}>
        <Lines id="clientIds" label={t('fields.clientIds')} hint={t('clientIdsHint')} errors={errors.clientIds} value={v.clientIds} />
        <Lines id="emailDomains" label={t('fields.emailDomains')} hint={t('emailDomainsHint')} errors={errors.emailDomains} value={v.emailDomains} />
      </Section>

      <Section id="connection-people" title={t('people')}>
        <Toggle name="jitCreate" label={t('jitCreate')} hint={t('jitCreateHint')} checked={v.jitCreate} />
        <Field id="jitState" label={t('jitState')} hint={t('jitStateHint')}>
          <select id="jitState" name="jitState" defaultValue={v.jitState} aria-describedby="jitState-hint" className={`${inputLook} bg-white ${border(false)}`}>
            <option value="enabled">{t('jitStates.enabled')}</option>
            <option value="disabled">{t('jitStates.disabled')}</option>
          </select>
        </Field>
        <Toggle name="trustedForMfa" label={t('trustedForMfa')} hint={t('trustedForMfaHint')} checked={v.trustedForMfa} />
        <Toggle name="keepTokens" label={t('keepTokens')} hint={t('keepTokensHint')} checked={v.keepTokens} />
        <Toggle name="upstreamLogout" label={t('upstreamLogout')} hint={t('upstreamLogoutHint')} checked={v.upstreamLogout} />
      </Section>

      <FormActions
        submit={mode === 'create' ? t('create') : t('save')}
        pending={pending}
        pendingLabel={mode === 'create' ? t('creating') : t('saving')}
        cancelHref={cancelHref}
      />
    </form>
  );
}
