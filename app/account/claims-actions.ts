'use server';
// /account's claims form: the person's own profile claims and the attributes an admin lets them change. requireUser()
// first (a server action is a public POST endpoint), their own account only; Next.js refuses another Origin's post.
import { redirect } from 'next/navigation';
import { saveOwnClaims } from '@/lib/surfaces/account/claims';
import type { AccessFormState } from '@/lib/surfaces/portal/access-form-state';
import { requireUser } from '@/lib/surfaces/portal/session';

export async function saveOwnClaimsAction(_state: AccessFormState, form: FormData): Promise<AccessFormState> {
  const result = await saveOwnClaims(await requireUser('/account'), form);
  if (result.status === 'done') redirect(`/account?notice=${result.notice}`);
  return result;
}
