/**
 * The paging arithmetic of the lists (portal clients and users, the audit log): pages count from 1.
 * Which rows a page reads, and where the rows it got stand in the whole list.
 */

export function pageRange(page: number, perPage: number): { skip: number; take: number } {
  return { skip: (page - 1) * perPage, take: perPage };
}

/** `shown` rows of `total` on `page`: their first and last numbers (both 0 when it shows none), and how many pages there are (at least one). */
export function pageWindow(page: number, perPage: number, total: number, shown: number): { pageCount: number; first: number; last: number } {
  const first = shown === 0 ? 0 : (page - 1) * perPage + 1;
  return { pageCount: Math.max(1, Math.ceil(total / perPage)), first, last: first === 0 ? 0 : first + shown - 1 };
}
