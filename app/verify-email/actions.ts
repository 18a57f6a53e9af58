'use server';
// The verification link's one button: public (the link is the proof), throttled per source by the use case.
import { headers } from 'next/headers';
import { serverContext } from '@/lib/context';
import { confirmEmail, type VerificationOutcome } from '@/lib/mail-links/email-verification';
import { requestContext } from '@/lib/platform/request-context';

export async function confirmEmailAction(token: string, _state: VerificationOutcome, _form: FormData): Promise<VerificationOutcome> {
  return confirmEmail(serverContext(), typeof token === 'string' ? token : '', requestContext(await headers()));
}
