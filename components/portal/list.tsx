/**
 * The admin lists' building blocks (clients, users, the audit log): a search box, a table with its
 * head and its empty row, and the pagination under it. Plain links and GET forms: they work without JavaScript.
 * Their own words are in the catalogs (`portal.list`), in the page's language.
 */
import { Link } from '../ui/link';
import { useTranslations } from 'next-intl';
import type { ReactNode } from 'react';
import type { ListSort } from '@/lib/platform/paging';
import type { BulkArea } from '@/lib/surfaces/portal/bulk';
import { Button, ButtonLink, focusRing } from '../ui/button';
import { PageHeader } from '../ui/card';
import { border, inputLook } from '../ui/field';
import { BulkForm } from './bulk';

/** A list's URL with its search and filters (the empty ones left out) and page (left out on page 1). */
export function listHref(path: string, filters: Record<string, string | undefined>, page: number): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value) params.set(key, value);
  if (page > 1) params.set('page', String(page));
  const search = params.toString();
  return `${path}${search ? `?${search}` : ''}`;
}

/** A searchable list's query string: its search `q`, `sort` and `page` (a repeated or missing parameter is none), and the URL of this very page. */
export async function listQuery(path: string, searchParams: Promise<Record<string, string | string[] | undefined>>) {
  const params = await searchParams;
  const [q, page, sort] = [params.q, params.page, params.sort].map((value) => (typeof value === 'string' ? value : undefined));
  return { params, q, page, sort, href: listHref(path, { q, sort }, Number(page) || 1) };
}

/** The query string's value for a sort (`-` before the column for descending; lib/platform/paging.ts reads it). */
export const sortParam = (sort: ListSort): string => `${sort.direction === 'desc' ? '-' : ''}${sort.column}`;

/** The search box above a list: a plain GET form to the list's own path. */
export function SearchForm({
  action,
  id,
  label,
  placeholder,
  query,
  sort,
}: {
  action: string;
  id: string;
  label: string;
  placeholder: string;
  query: string;
  /** The list's order, kept by a new search. */
  sort?: string;
}) {
  const t = useTranslations('portal.list');
  return (
    <form role="search" method="get" action={action} className="mb-4 flex max-w-lg gap-2">
      {sort ? <input type="hidden" name="sort" value={sort} /> : null}
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <input
        id={id}
        type="search"
        name="q"
        defaultValue={query}
        maxLength={100}
        placeholder={placeholder}
        className={`${inputLook} ${border(false)} bg-white`}
      />
      <Button type="submit" variant="secondary">
        {t('search')}
      </Button>
    </form>
  );
}

/**
 * A column's heading; `className` hides it on narrow screens (the row's cell says the same); `sort`, the column's key
 * when the list can be ordered by it; `hidden`, a heading for screen readers only (a column of buttons that name themselves).
 */
export interface Column {
  label: string;
  className?: string;
  sort?: string;
  hidden?: boolean;
}

/** How a list is ordered now, and the URL of the list ordered another way (on its first page). */
export interface TableSort {
  current: ListSort;
  href: (sort: string) => string;
}

/**
 * A sortable column's heading: a link (a GET, so without JavaScript too) to the list ordered by it,
 * ascending first, the other way when it is the order already; aria-sort on the heading says which.
 */
function SortHeading({ column, sort }: { column: Column & { sort: string }; sort: TableSort }) {
  const active = sort.current.column === column.sort;
  const next: ListSort = { column: column.sort, direction: active && sort.current.direction === 'asc' ? 'desc' : 'asc' };
  return (
    <th
      scope="col"
      aria-sort={active ? (sort.current.direction === 'asc' ? 'ascending' : 'descending') : undefined}
      className={`px-4 py-3 ${column.className ?? ''}`}
    >
      <Link href={sort.href(sortParam(next))} className={`inline-flex items-center gap-1 rounded-sm uppercase hover:text-slate-900 ${focusRing}`}>
        {column.label}
        <span aria-hidden className={active ? 'text-slate-700' : 'text-slate-300'}>
          {active && sort.current.direction === 'desc' ? '↓' : '↑'}
        </span>
      </Link>
    </th>
  );
}

/** A list's table: screen-reader caption, column headings, the rows, and `empty` in one wide row when there are none. */
export function DataTable({
  caption,
  columns,
  empty,
  rows,
  sort,
  className = '',
  bodyClassName = '',
}: {
  caption: string;
  columns: Column[];
  empty: string;
  rows: ReactNode[];
  sort?: TableSort;
  className?: string;
  bodyClassName?: string;
}) {
  return (
    // A wide table scrolls sideways inside its box on a phone: the box takes the focus (and its name
    // from the caption), so a keyboard can scroll it too (WCAG 2.1.1; axe's scrollable-region-focusable).
    <div
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard to be scrolled by it
      tabIndex={0}
      role="region"
      aria-label={caption}
      className={`overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-xs ${focusRing}`}
    >
      <table className={`w-full ${className} text-left text-sm`}>
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b border-slate-200 bg-slate-50 text-xs font-semibold tracking-wide text-slate-500 uppercase">
          <tr>
            {columns.map((column) =>
              column.sort && sort ? (
                <SortHeading key={column.label} column={{ ...column, sort: column.sort }} sort={sort} />
              ) : (
                <th key={column.label} scope="col" className={`px-4 py-3 ${column.className ?? ''}`}>
                  {column.hidden ? <span className="sr-only">{column.label}</span> : column.label}
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody className={`divide-y divide-slate-100 ${bodyClassName}`}>
          {rows}
          {rows.length === 0 ? (
            <tr>
              <td colSpan={columns.length} className="px-4 py-10 text-center text-slate-600">
                {empty}
              </td>
            </tr>
          ) : null}
        </tbody>
      </table>
    </div>
  );
}

/** What a service's page of a list says about where it is (lib/platform/paging.ts). */
export interface PageWindow {
  page: number;
  pageCount: number;
  total: number;
  first: number;
  last: number;
}

/** "Showing a–b of n" with Previous / Next links; nothing when the list is empty (its table's empty row says so, once). */
export function Pagination({ list, href, summary }: { list: PageWindow; href: (page: number) => string; summary?: string }) {
  const t = useTranslations('portal.list');
  const { page, pageCount } = list;
  if (list.total === 0 && page <= 1) return null;
  return (
    <nav aria-label={t('pagination')} className="mt-4 flex flex-wrap items-center justify-between gap-3 text-sm text-slate-600">
      <p>{list.total === 0 ? t('emptyPage') : (summary ?? t('showing', { first: list.first, last: list.last, total: list.total }))}</p>
      <div className="flex gap-2">
        {page > 1 ? (
          <ButtonLink variant="secondary" href={href(Math.min(page - 1, pageCount))} rel="prev">
            {t('previous')}
          </ButtonLink>
        ) : null}
        {page < pageCount ? (
          <ButtonLink variant="secondary" href={href(page + 1)} rel="next">
            {t('next')}
          </ButtonLink>
        ) : null}
      </div>
    </nav>
  );
}

/** The words a searchable list's catalog namespace has for its search box, its table's caption and its empty row. */
export type ListWords = (key: 'searchLabel' | 'searchPlaceholder' | 'caption' | 'captionMatching' | 'noMatch' | 'none', values?: { query: string }) => string;

/** A searchable list's search box, caption and empty row, for ListPage, in its own words (the users and clients lists). */
export function searchableList(path: string, id: string, words: ListWords, query: string, sort: string | undefined) {
  return {
    search: { action: path, id, label: words('searchLabel'), placeholder: words('searchPlaceholder'), query, sort },
    caption: query ? words('captionMatching', { query }) : words('caption'),
    empty: query ? words('noMatch', { query }) : words('none'),
  };
}

/** A list page: its header, a notice, the search box (or `filters`), the table (in the bulk actions' form when `bulk` names the area) and the pagination. */
export function ListPage({
  title,
  description,
  actions,
  notice,
  search,
  filters,
  table,
  paging,
  bulk,
}: {
  title: string;
  description: string;
  actions?: ReactNode;
  notice?: ReactNode;
  search?: Parameters<typeof SearchForm>[0];
  filters?: ReactNode;
  table: Parameters<typeof DataTable>[0];
  paging: Parameters<typeof Pagination>[0];
  bulk?: BulkArea;
}) {
  return (
    <>
      <PageHeader title={title} description={description} actions={actions} />
      {notice}
      {search ? <SearchForm {...search} /> : filters}
      {bulk ? (
        <BulkForm area={bulk}>
          <DataTable {...table} />
        </BulkForm>
      ) : (
        <DataTable {...table} />
      )}
      <Pagination {...paging} />
    </>
  );
}
