/**
 * Row types for the raw driver (lib/db/sql.ts), derived from the Prisma models
 * (prisma/schema/models.prisma, through the generated client: the SQLite and
 * PostgreSQL clients have identical models) instead of written again by hand.
 * A repository names the fields it reads once, as the model's own field names
 * (checked by tsc); the column list of its SQL and the row type both follow.
 * Every `@map` in the schema is its field's name in snake_case, which is what
 * `column` assumes: lib/db/rows.test.ts checks it against the schema.
 */

type SnakeCase<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${SnakeCase<Tail>}`
  : S;

/**
 * What the raw driver returns for a column of this Prisma type: SQLite stores
 * booleans as 0/1 and BigInt as a number, DateTime as text or epoch ms;
 * node-postgres returns int8 as a string.
 */
type RawValue<T> = T extends boolean ? number | boolean : T extends Date ? unknown : T extends bigint ? string | number | bigint : T;

/** The columns `Field` of a model as the raw driver returns them: snake_case names, driver values. */
export type RawRow<Model, Field extends keyof Model & string> = { [F in Field as SnakeCase<F>]: RawValue<Model[F]> };

/** A model field's column (`secretHash` → `secret_hash`). */
export const column = (field: string) => field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** The SQL column list of these fields of `Model`: `columnList<Client>(['id', 'secretHash'])` is `id, secret_hash`. */
export const columnList = <Model>(fields: readonly (keyof Model & string)[]) => fields.map(column).join(', ');

/**
 * A DateTime column as the raw driver returns it, in epoch ms: an ISO string or
 * epoch ms (SQLite), or a Date (PostgreSQL). Prisma writes UTC into PostgreSQL's
 * `timestamp` (without time zone), which node-postgres reads as local time:
 * its wall-clock fields are the UTC ones.
 */
export function epochMs(value: unknown): number {
  if (value === null || value === undefined) return 0;
  if (value instanceof Date) {
    const d = value;
    return Date.UTC(d.getFullYear(), d.getMonth(), d.getDate(), d.getHours(), d.getMinutes(), d.getSeconds(), d.getMilliseconds());
  }
  if (typeof value === 'number' || typeof value === 'bigint') return Number(value);
  const parsed = Date.parse(String(value));
  return Number.isNaN(parsed) ? 0 : parsed;
}

/**
 * A row found by its primary key, as the repository's plain record (never the raw row), or undefined when
 * there is none: every repository's `find<Thing>(db, id)`. `findUnique` is the model's own, such as
 * `(args) => db.prisma.client.findUnique(args)`.
 */
export async function recordById<Row, Record>(
  findUnique: (args: { where: { id: string } }) => Promise<Row | null>,
  id: string,
  toRecord: (row: Row) => Record,
): Promise<Record | undefined> {
  const row = await findUnique({ where: { id } });
  return row ? toRecord(row) : undefined;
}
