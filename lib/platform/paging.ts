/**
 * The paging of the lists (portal clients and users, the audit log): pages count from 1.
 * What a list page was asked for, which rows a page reads, and where the rows it got stand in the whole list.
 */
import { z } from 'zod';

/** A list page's search text and page number from its query string; anything malformed falls back rather than fails. */
const listQuery = z.object({
  q: z.string().trim().max(100).catch(''),
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
});

export function parseListQuery(params: { q?: unknown; page?: unknown }): { q: string; page: number } {
  return listQuery.parse({ q: params.q ?? '', page: params.page ?? 1 });
}

export function pageRange(page: number, perPage: number): { skip: number; take: number } {
  return { skip: (page - 1) * perPage, take: perPage };
}

/** `shown` rows of `total` on `page`: their first and last numbers (both 0 when it shows none), and how many pages there are (at least one). */
export function pageWindow(page: number, perPage: number, total: number, shown: number): { pageCount: number; first: number; last: number } {
  const first = shown === 0 ? 0 : (page - 1) * perPage + 1;
  return { pageCount: Math.max(1, Math.ceil(total / perPage)), first, last: first === 0 ? 0 : first + shown - 1 };
}

/** Where a list page stands: what was searched, which page of how many, and the numbers of its first and last rows. */
export interface ListPosition {
  query: string;
  page: number;
  pageCount: number;
  total: number;
  first: number;
  last: number;
}

export type SortDirection = 'asc' | 'desc';

/** A list's order: one of its sortable columns, and which way. */
export interface ListSort<C extends string = string> {
  column: C;
  direction: SortDirection;
}

/**
 * A list's order from its query string, `sort=<column>` (ascending) or
 * `sort=-<column>` (descending); anything else is the list's default.
 */
export function parseSort<C extends string>(value: unknown, columns: readonly C[], fallback: ListSort<C>): ListSort<C> {
  if (typeof value !== 'string') return fallback;
  const direction: SortDirection = value.startsWith('-') ? 'desc' : 'asc';
  const column = value.replace(/^-/, '');
  return (columns as readonly string[]).includes(column) ? { column: column as C, direction } : fallback;
}

/** The lists' usual order: newest first. */
export const NEWEST_FIRST = { column: 'createdAt', direction: 'desc' } as const satisfies ListSort;

/** A searchable list's page: its rows, its order, and where it stands. */
export interface ListPage<Row, C extends string> extends ListPosition {
  rows: Row[];
  sort: ListSort<C>;
}

/**
 * A searchable list's page from its query string (`q`, `page`, `sort`; malformed falls back): `search` reads that
 * page's rows, then where they stand in the whole list.
 */
export async function listPage<C extends string, Row>(
  params: { q?: unknown; page?: unknown; sort?: unknown },
  list: { perPage: number; columns: readonly C[]; defaultSort: ListSort<C> },
  search: (range: { query: string | undefined; skip: number; take: number; sort: ListSort<C> }) => Promise<{ rows: Row[]; total: number }>,
): Promise<ListPage<Row, C>> {
  const { q, page } = parseListQuery(params);
  const sort = parseSort(params.sort, list.columns, list.defaultSort);
  const { rows, total } = await search({ query: q || undefined, ...pageRange(page, list.perPage), sort });
  return { rows, sort, query: q, page, total, ...pageWindow(page, list.perPage, total, rows.length) };
}
