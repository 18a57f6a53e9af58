/**
 * The sign-in page's buttons for upstream identity providers (lib/federation): one form per
 * connection posting its slug, with the request's hidden fields. Icons are local files under
 * public/connections/ (no remote images on the sign-in page); without one, the name's initial. UI only.
 */
import { Button } from '../ui/button';
import { RequestFields } from './request-fields';

export function ConnectionButtons({
  action,
  client,
  connections,
  label,
  or,
}: {
  action: string;
  client: { id: string; redirectUri?: string };
  connections: { slug: string; displayName: string; icon: string | null }[];
  label: (name: string) => string;
  /** The separator's word before the page's other ways in; absent when there is nothing below. */
  or?: string;
}) {
  return (
    <section className="mb-6 space-y-3">
      {connections.map((connection) => (
        <form key={connection.slug} method="post" action={action}>
          <RequestFields client={client} />
          <input type="hidden" name="connection" value={connection.slug} />
          <Button block type="submit" variant="secondary">
            <span className="flex items-center justify-center gap-2">
              {connection.icon ? (
                // biome-ignore lint/performance/noImgElement: a small local file from public/connections/, decorative beside the name
                <img src={`/connections/${connection.icon}`} alt="" width={20} height={20} className="size-5" />
              ) : (
                <span aria-hidden="true" className="flex size-5 items-center justify-center rounded bg-slate-200 text-xs font-semibold text-slate-700">
                  {[...connection.displayName.trim()][0]?.toUpperCase() ?? '?'}
                </span>
              )}
              {label(connection.displayName)}
            </span>
          </Button>
        </form>
      ))}
      {or ? (
        <p className="flex items-center gap-3 text-xs uppercase text-slate-500" aria-hidden="true">
          <span className="h-px flex-1 bg-slate-200" />
          {or}
          <span className="h-px flex-1 bg-slate-200" />
        </p>
      ) : null}
    </section>
  );
}
