/**
 * The account chooser of the sign-in step (lib/sign-in/remembered-accounts.ts): the accounts signed
 * in on this browser, each a link to the sign-in form with its username filled (its password or
 * passkey is still asked) and a Remove button per account (a form post, no JavaScript needed); the
 * page's sign-in form below it is for another account. UI only.
 */
import { focusRing } from '../ui/button';
import { RequestFields } from './request-fields';

export interface ChooserTexts {
  /** "Remove", and the sr-only rest: " {account} from this list". */
  remove: string;
  removeWhich: (account: string) => string;
}

/**
 * An address that may break after its @ first: on a phone a long one went to the next line mid-name ("user-0367528ae5|08@…"),
 * as `break-all` breaks wherever a line is full; `wrap-anywhere` breaks inside only what still does not fit (app/globals.css).
 */
function breakableAddress(address: string) {
  const at = address.lastIndexOf('@');
  if (at < 0) return address;
  return (
    <>
      {address.slice(0, at + 1)}
      <wbr />
      {address.slice(at + 1)}
    </>
  );
}

export function AccountChooser({
  base,
  client,
  accounts,
  texts,
}: {
  base: string;
  client: { id: string; redirectUri?: string };
  accounts: { id: string; username: string; name?: string; email?: string }[];
  texts: ChooserTexts;
}) {
  return (
    <div>
      <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200">
        {accounts.map((account) => {
          const shown = account.name ?? account.username;
          const initial = [...shown.trim()][0]?.toUpperCase() ?? '?';
          return (
            <li key={account.id} className="flex items-center gap-2 p-2">
              <a
                href={`${base}?account=${encodeURIComponent(account.id)}`}
                className={`flex min-w-0 flex-1 items-center gap-3 rounded-md p-2 hover:bg-slate-50 ${focusRing}`}
              >
                <span aria-hidden="true" className="flex size-9 shrink-0 items-center justify-center rounded-full bg-slate-100 font-semibold text-slate-700">
                  {initial}
                </span>
                <span className="min-w-0">
                  <span className="block font-medium break-words text-slate-900">{shown}</span>
                  <span className="block text-sm wrap-anywhere text-slate-600">{account.email ? breakableAddress(account.email) : account.username}</span>
                </span>
              </a>
              <form method="post" action={`${base}/forget-account`}>
                <RequestFields client={client} />
                <input type="hidden" name="account" value={account.id} />
                <button type="submit" className={`cursor-pointer rounded-sm px-2 py-1 text-sm text-slate-600 underline-offset-2 hover:underline ${focusRing}`}>
                  {texts.remove}
                  <span className="sr-only">{texts.removeWhich(shown)}</span>
                </button>
              </form>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
