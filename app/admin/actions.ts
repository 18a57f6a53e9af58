'use server';
// Sign-out, for anyone with a portal session (the 403 page offers it too): not an admin action, so no requireAdmin().
import { redirect } from 'next/navigation';
import { endPortalSession } from '@/lib/surfaces/portal/session';

export async function signOutAction(): Promise<void> {
  redirect(await endPortalSession());
}
