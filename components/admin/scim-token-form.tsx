'use client';
/**
 * Issuing a token for a SCIM provisioning client: its name, which the audit log names its changes by. Its action is
 * a server action validated by the token's schema (lib/scim/tokens.ts); a problem comes back next to the field in
 * the page's language. Once issued, the token is shown once, to copy: Gatehouse keeps only its hash.
 */
import { useTranslations } from 'next-intl';
import { useActionState } from 'react';
import { fieldProblemTexts } from '@/lib/i18n/problems';
import type { ScimTokenFormState } from '@/lib/surfaces/portal/provisioning';
import { Button, ButtonLink } from '../ui/button';
import { CopyField } from '../ui/copy-field';
import { TextField } from '../ui/field';
import { Notice } from '../ui/notice';
import { ProblemSummary } from '../ui/problem-summary';

export function ScimTokenForm({ action }: { action: (state: ScimTokenFormState, form: FormData) => Promise<ScimTokenFormState> }) {
  const t = useTranslations('admin.scimTokenForm');
  const problems = useTranslations('problems');
  const [state, formAction, pending] = useActionState(action, { status: 'editing', name: '', problems: {} });
  if (state.status === 'issued') {
    return (
      <div className="space-y-4">
        <Notice variant="warning">
          <p className="font-semibold">{t('issued', { name: state.name })}</p>
          <p className="mt-1">{t('copyToken')}</p>
        </Notice>
        <CopyField id="scim-token" label={t('token')} value={state.token} secret />
        <ButtonLink href="/admin/provisioning" variant="secondary">
          {t('done')}
        </ButtonLink>
      </div>
    );
  }
  const errors = fieldProblemTexts(problems, state.problems);
  return (
    <form action={formAction} noValidate className="space-y-5">
      <ProblemSummary errors={errors} names={{ form: t('form'), name: t('name') }} />
      <TextField id="name" label={t('name')} hint={t('nameHint')} errors={errors.name} required defaultValue={state.name} />
      <Button type="submit" disabled={pending}>
        {pending ? t('issuing') : t('issue')}
      </Button>
    </form>
  );
}
