/** Badges that say what a client demands of the people who sign in to it, in words (not by colour alone). UI only. */
import { Badge } from '../ui/notice';

/** Every sign-in to the client ends with a second factor (require_second_factor; lib/oidc/step-up.ts). */
export function SecondFactorBadge({ required }: { required: boolean }) {
  return required ? <Badge variant="indigo">Requires two-step verification</Badge> : null;
}
