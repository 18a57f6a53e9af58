// The fields of a person's claims: the standard profile claims (OIDC Core §5.1) and the custom attributes shown to
// whoever is editing (all for an admin, the person's own where an admin allowed it). UI only: values and the list of
// attributes come from the page; the form around them (components/admin/access-form.tsx) posts them.
import { getTranslations } from 'next-intl/server';
import { border, inputLook } from '@/components/ui/field';

export interface ClaimsFieldValues {
  givenName: string | null;
  familyName: string | null;
  picture: string | null;
  locale: string | null;
  zoneinfo: string | null;
  phoneNumber: string | null;
  phoneNumberVerified: boolean;
}

export interface AttributeField {
  key: string;
  name: string;
  type: 'string' | 'number' | 'boolean';
  value: string | number | boolean | undefined;
}

const control = `${inputLook} mt-1 bg-white ${border(false)}`;

function Text({
  id,
  name,
  label,
  value,
  type = 'text',
  hint,
}: {
  id: string;
  name: string;
  label: string;
  value?: string | number | null;
  type?: string;
  hint?: string;
}) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      {hint ? (
        <p id={`${id}-hint`} className="mt-0.5 text-xs text-slate-600">
          {hint}
        </p>
      ) : null}
      <input
        id={id}
        name={name}
        type={type}
        defaultValue={value ?? ''}
        autoComplete="off"
        aria-describedby={hint ? `${id}-hint` : undefined}
        className={control}
      />
    </div>
  );
}

export async function ClaimsFields({
  idPrefix,
  profile,
  attributes,
  admin,
}: {
  idPrefix: string;
  profile?: ClaimsFieldValues;
  attributes: AttributeField[];
  /** An admin may say the phone number is verified. */
  admin: boolean;
}) {
  const t = await getTranslations('claims');
  const id = (name: string) => `${idPrefix}-${name}`;
  return (
    <div className="space-y-4">
      {profile ? (
        <div className="grid gap-4 sm:grid-cols-2">
          <Text id={id('given')} name="givenName" label={t('givenName')} value={profile.givenName} />
          <Text id={id('family')} name="familyName" label={t('familyName')} value={profile.familyName} />
          <Text id={id('picture')} name="picture" type="url" label={t('picture')} value={profile.picture} hint={t('pictureHint')} />
          <Text id={id('locale')} name="locale" label={t('locale')} value={profile.locale} hint={t('localeHint')} />
          <Text id={id('zoneinfo')} name="zoneinfo" label={t('zoneinfo')} value={profile.zoneinfo} hint={t('zoneinfoHint')} />
          <Text id={id('phone')} name="phoneNumber" type="tel" label={t('phoneNumber')} value={profile.phoneNumber} hint={t('phoneHint')} />
          {admin ? (
            <label htmlFor={id('phone-verified')} className="flex items-center gap-2 text-sm text-slate-700 sm:col-span-2">
              <input id={id('phone-verified')} name="phoneNumberVerified" type="checkbox" defaultChecked={profile.phoneNumberVerified} className="size-4" />
              {t('phoneVerified')}
            </label>
          ) : profile.phoneNumber ? (
            <p className="text-xs text-slate-600 sm:col-span-2">{profile.phoneNumberVerified ? t('phoneIsVerified') : t('phoneNotVerified')}</p>
          ) : null}
        </div>
      ) : null}
      {attributes.length ? (
        <fieldset className="grid gap-4 sm:grid-cols-2">
          <legend className="mb-2 text-sm font-semibold text-slate-900">{t('attributes')}</legend>
          {attributes.map((attribute) =>
            attribute.type === 'boolean' ? (
              <div key={attribute.key}>
                <label htmlFor={id(`attr-${attribute.key}`)} className="block text-sm font-medium text-slate-800">
                  {attribute.name}
                </label>
                <select
                  id={id(`attr-${attribute.key}`)}
                  name={`attribute.${attribute.key}`}
                  defaultValue={attribute.value === undefined ? '' : String(attribute.value)}
                  className={control}
                >
                  <option value="">{t('unset')}</option>
                  <option value="true">{t('yes')}</option>
                  <option value="false">{t('no')}</option>
                </select>
              </div>
            ) : (
              <Text
                key={attribute.key}
                id={id(`attr-${attribute.key}`)}
                name={`attribute.${attribute.key}`}
                type={attribute.type === 'number' ? 'number' : 'text'}
                label={attribute.name}
                value={attribute.value === undefined ? '' : String(attribute.value)}
              />
            ),
          )}
        </fieldset>
      ) : null}
    </div>
  );
}
