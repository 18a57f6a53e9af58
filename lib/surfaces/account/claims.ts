/**
 * /account's side of claims: the person's own profile claims (lib/users/profile-claims.ts) and the custom attributes
 * an admin let people change themselves (lib/claims). Only their own account; never the phone number's verified flag
 * nor an attribute only admins change (the use cases refuse both, whatever a form posts).
 */
import 'server-only';
import { serverContext } from '../../context.ts';
import { listAttributes, setAttributeValues, valuesOf } from '../../claims/attributes.ts';
import { profileClaimsOf, updateProfileClaims } from '../../users/profile-claims.ts';
import type { SignedInUser } from '../portal/session.ts';
import { byAdmin } from '../portal/audit-context.ts';
import { attempt, readAttributeValues, readProfileClaims } from '../portal/claims.ts';

/** The person's claims, and the attributes they may change (with their values). */
export async function ownClaims(user: SignedInUser) {
  const { db } = serverContext();
  const [profile, attributes, values] = await Promise.all([profileClaimsOf(db, user.id), listAttributes(db), valuesOf(db, user.id)]);
  return { profile, attributes: attributes.filter((a) => a.editableBy === 'user').map((a) => ({ ...a, value: values[a.key] })) };
}

export async function saveOwnClaims(user: SignedInUser, form: FormData) {
  return attempt('claims_saved', async () => {
    const { db } = serverContext();
    const by = await byAdmin({ id: user.id, username: user.username });
    await updateProfileClaims(db, user.id, readProfileClaims(form, false), 'user', by);
    const keys = (await listAttributes(db)).filter((a) => a.editableBy === 'user').map((a) => a.key);
    await setAttributeValues(db, user.id, readAttributeValues(form, keys), 'user', by);
  });
}
