'use server';
// The System page's one action: rotate the signing keys.
import { revalidatePath } from 'next/cache';
import { rotateKeysFromForm, type KeyRotation } from '@/lib/surfaces/portal/system';
import { asAdmin } from '../outcomes';

export async function rotateKeysAction(_state: KeyRotation, form: FormData): Promise<KeyRotation> {
  const result = await asAdmin('keys.manage', '/admin/system', (admin) => rotateKeysFromForm(admin, form));
  if (result.status === 'done') revalidatePath('/admin/system');
  return result;
}
