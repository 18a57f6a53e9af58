/**
 * Wire pieces shared by the admin API's resources: timestamps, paging, path
 * ids. Names are snake_case here and only here: the wire follows OAuth's
 * convention, the code inside follows TypeScript's.
 */
import { z } from 'zod';

/** RFC 3339 in UTC, as Date#toISOString writes it. */
export const timestamp = z.iso.datetime();

export const iso = (date: Date) => date.toISOString();
export const isoOrNull = (date: Date | null) => (date ? date.toISOString() : null);

export const MAX_PER_PAGE = 100;

/** `page` counts from 1; `per_page` is at most MAX_PER_PAGE. */
export const paging = {
  page: z.coerce.number().int().min(1).max(100_000).default(1).meta({ description: 'Which page, from 1.' }),
  per_page: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_PER_PAGE)
    .default(20)
    .meta({ description: `Items per page, at most ${MAX_PER_PAGE}.` }),
};

export const searchQuery = z.strictObject({
  q: z.string().trim().max(100).optional().meta({ description: 'Case-insensitive part of a name or id.' }),
  ...paging,
});

/** One page of a list, and how many items match in all. */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.strictObject({
    data: z.array(item),
    page: z.number().int().min(1),
    per_page: z.number().int().min(1),
    total: z.number().int().min(0),
  });
}

/** An id in a URL path: bounded, so nothing unbounded reaches a query. */
export const pathId = (max = 200) => z.string().min(1).max(max);
