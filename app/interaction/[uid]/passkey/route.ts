// POST /interaction/:uid/passkey — the passkey button's target: a WebAuthn assertion, as the second step or alone.
import { interactionForm } from '@/app/interaction/respond';
import { BODY_LIMITS } from '@/lib/http/body-limits';
import { passkeyStep } from '@/lib/sign-in/interactions';

export const POST = interactionForm((ctx, uid, cookie, context, form) => passkeyStep(ctx, uid, cookie, form, context), { limit: BODY_LIMITS.passkeyForm });
