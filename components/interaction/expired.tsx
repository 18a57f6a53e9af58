/** What an interaction page shows once its authorization request is gone. UI only. */
import { AuthCard } from '../ui/card';

export function ExpiredInteraction() {
  return (
    <AuthCard title="This sign-in request has expired">
      <p className="text-sm text-slate-600">
        It may have timed out, been finished already, or been opened in another browser. Go back to the application and start again.
      </p>
    </AuthCard>
  );
}
