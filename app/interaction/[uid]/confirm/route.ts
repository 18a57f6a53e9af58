// POST /interaction/:uid/confirm — the consent form's Allow.
import { interactionForm } from '@/app/interaction/respond';
import { confirmConsent } from '@/lib/services/interactions';

export const POST = interactionForm(confirmConsent);
