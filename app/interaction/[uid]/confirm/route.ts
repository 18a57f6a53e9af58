// POST /interaction/:uid/confirm — the consent form's Allow.
import { interactionForm } from '@/app/interaction/respond';
import { confirmConsent } from '@/lib/sign-in/interactions';

export const POST = interactionForm(confirmConsent);
