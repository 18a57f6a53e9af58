// POST /interaction/:uid/second-factor — the code step's target: a TOTP code or a recovery code.
import { interactionForm } from '@/app/interaction/respond';
import { secondStep } from '@/lib/services/interactions';

export const POST = interactionForm((uid, cookie, context, form) => secondStep(uid, cookie, form, context));
