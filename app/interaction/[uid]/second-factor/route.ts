// POST /interaction/:uid/second-factor — the code step's target: a TOTP code or a recovery code.
import { interactionForm } from '@/app/interaction/respond';
import { secondStep } from '@/lib/sign-in/interactions';

export const POST = interactionForm((ctx, uid, cookie, context, form) => secondStep(ctx, uid, cookie, form, context));
