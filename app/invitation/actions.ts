'use server';
/**
 * The invitation link's form: public (the link is the proof), throttled per
 * source by the use case (lib/users/invitations.ts). Next.js refuses
 * server-action posts whose Origin is not this host (CSRF), as for the reset form.
 */
import { headers } from 'next/headers';
import { serverContext } from '@/lib/context';
import { acceptInvitation, type AcceptState } from '@/lib/users/invitations';
import { requestContext } from '@/lib/platform/request-context';

export async function acceptInvitationAction(token: string, _state: AcceptState, form: FormData): Promise<AcceptState> {
  return acceptInvitation(serverContext(), typeof token === 'string' ? token : '', form, requestContext(await headers()));
}
