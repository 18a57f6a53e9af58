// POST /interaction/:uid/forget-account — "Remove" on the account chooser: the account leaves this browser's list.
import { interactionForm } from '@/app/interaction/respond';
import { removeRememberedAccount } from '@/lib/sign-in/account-choice';

export const POST = interactionForm((ctx, uid, cookie, _context, form) => removeRememberedAccount(ctx, uid, cookie, form));
