import { ButtonLink } from './ui';

/** "Showing a–b of n" with Previous / Next links, for the admin lists. Plain links: works without JavaScript. */
export function Pagination({
  summary,
  page,
  pageCount,
  href,
}: {
  summary: string;
  page: number;
  pageCount: number;
  /** The URL of a page, keeping the list's search and filters. */
  href: (page: number) => string;
}) {
  return (
    <nav aria-label="Pagination" className="mt-4 flex flex-wrap items-center justify-between gap-3 text-sm text-slate-600">
      <p>{summary}</p>
      <div className="flex gap-2">
        {page > 1 ? (
          <ButtonLink look="secondary" href={href(Math.min(page - 1, pageCount))} rel="prev">
            Previous
          </ButtonLink>
        ) : null}
        {page < pageCount ? (
          <ButtonLink look="secondary" href={href(page + 1)} rel="next">
            Next
          </ButtonLink>
        ) : null}
      </div>
    </nav>
  );
}
