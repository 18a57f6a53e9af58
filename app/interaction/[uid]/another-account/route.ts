// POST /interaction/:uid/another-account — "Not you? Use another account" on the consent and sign-in pages.
import { interactionForm } from '@/app/interaction/respond';
import { useAnotherAccount } from '@/lib/sign-in/account-choice';

export const POST = interactionForm((ctx, uid, cookie, _context, form) => useAnotherAccount(ctx, uid, cookie, form));
