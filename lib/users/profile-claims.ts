/**
 * The standard profile claims beyond name and email (OIDC Core §5.1): given and family name, picture, locale, time
 * zone, phone number. The person changes them on /account, an admin on the person's page; only an admin may say a
 * phone number is verified (no code is sent to it), and a changed number is no longer verified. The provider releases
 * them under the `profile` and `phone` scopes (lib/oidc/configuration.ts accountClaims).
 */
import { z } from 'zod';
import { recordAuditBy, type AuditBy } from '../audit/log.ts';
import type { Database } from '../db/database.ts';
import { Forbidden, NotFound, parseInput } from '../platform/errors.ts';
import { existingUser } from './manage.ts';
import { findProfileClaims, updateProfileClaimsRow } from './repository.ts';

const optional = (schema: z.ZodType<string, string>) =>
  z
    .string()
    .trim()
    .transform((v) => v || null)
    .pipe(schema.nullable())
    .nullable()
    .default(null);

const isTimeZone = (zone: string) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return zone.includes('/') || zone === 'UTC';
  } catch {
    return false;
  }
};

export const profileClaimsSchema = z.object({
  givenName: optional(z.string().max(128, 'a name is at most 128 characters')),
  familyName: optional(z.string().max(128, 'a name is at most 128 characters')),
  /** An https URL (OIDC Core §5.1 picture), so a page showing it does not mix content. */
  picture: optional(z.url({ protocol: /^https$/, error: 'the picture is an https URL' }).max(500)),
  /** A BCP 47 language tag (de, de-DE, zh-Hant-TW). */
  locale: optional(z.string().regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8}){0,3}$/, 'a locale is a language tag such as de-DE')),
  /** An IANA time zone (Europe/Berlin). */
  zoneinfo: optional(z.string().max(64).refine(isTimeZone, 'a time zone is one of the IANA database, such as Europe/Berlin')),
  /** E.164 (OIDC Core §5.1 recommends it): +, the country code, the number; spaces are dropped. */
  phoneNumber: optional(
    z
      .string()
      .transform((v) => v.replace(/[\s()-]/g, ''))
      .pipe(z.string().regex(/^\+[1-9]\d{6,14}$/, 'a phone number starts with + and the country code (+49 30 1234567)')),
  ),
  phoneNumberVerified: z.boolean().optional(),
});
export type ProfileClaimsInput = z.input<typeof profileClaimsSchema>;
export type ProfileClaims = Omit<z.output<typeof profileClaimsSchema>, 'phoneNumberVerified'> & { phoneNumberVerified: boolean };

export const PROFILE_CLAIM_FIELDS = ['givenName', 'familyName', 'picture', 'locale', 'zoneinfo', 'phoneNumber'] as const;

export async function profileClaimsOf(db: Database, userId: string): Promise<ProfileClaims> {
  const claims = await findProfileClaims(db, userId);
  if (!claims) throw new NotFound(`no user ${userId}`);
  return { ...claims, phoneNumberVerified: claims.phoneNumberVerified === true };
}

/** Replaces the claims; `as: 'user'` (the person) may not say their number is verified. */
export async function updateProfileClaims(db: Database, userId: string, input: ProfileClaimsInput, as: 'admin' | 'user', by?: AuditBy): Promise<ProfileClaims> {
  const data = parseInput(profileClaimsSchema, input);
  if (as === 'user' && data.phoneNumberVerified) throw new Forbidden('only an admin may say a phone number is verified');
  const user = await existingUser(db, userId);
  const before = await profileClaimsOf(db, user.id);
  const numberChanged = data.phoneNumber !== before.phoneNumber;
  const phoneNumberVerified = data.phoneNumber === null ? false : (data.phoneNumberVerified ?? (numberChanged ? false : before.phoneNumberVerified));
  const after: ProfileClaims = { ...data, phoneNumberVerified };
  const changed = ([...PROFILE_CLAIM_FIELDS, 'phoneNumberVerified'] as const).filter((field) => before[field] !== after[field]);
  if (!changed.length) return before;
  await updateProfileClaimsRow(db, user.id, after);
  await recordAuditBy(db, by, { action: 'user.updated', target: { type: 'user', id: user.id, label: user.username }, details: { changed } });
  return after;
}
