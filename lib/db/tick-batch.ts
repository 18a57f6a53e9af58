/**
 * Calls made in the same turn of the event loop, run as one: what concurrent
 * requests ask of PostgreSQL at the same step of their flow (the token
 * endpoint's code lookups, its inserts) becomes one statement and one round
 * trip instead of one each (lib/db/artifacts.ts). The batch runs at the next
 * setImmediate, as SQLite's group commit does (lib/db/sql.ts); a lone call pays
 * only that wait. `run` answers each item in order; if it fails, every caller
 * of the batch gets its error.
 */
export function tickBatch<Item, Result>(run: (items: Item[]) => Promise<Result[]>): (item: Item) => Promise<Result> {
  let pending: { item: Item; resolve(result: Result): void; reject(error: unknown): void }[] = [];
  const flush = () => {
    const batch = pending;
    pending = [];
    let ran: Promise<Result[]>;
    try {
      ran = run(batch.map((call) => call.item));
    } catch (error) {
      ran = Promise.reject(error);
    }
    ran.then(
      (results) => batch.forEach((call, i) => call.resolve(results[i])),
      (error: unknown) => batch.forEach((call) => call.reject(error)),
    );
  };
  return (item) =>
    new Promise<Result>((resolve, reject) => {
      if (pending.length === 0) setImmediate(flush);
      pending.push({ item, resolve, reject });
    });
}
