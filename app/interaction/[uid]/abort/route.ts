// POST /interaction/:uid/abort — Cancel or Deny: the client receives access_denied.
import { interactionForm } from '@/app/interaction/respond';
import { deny } from '@/lib/sign-in/interactions';

export const POST = interactionForm(deny);
