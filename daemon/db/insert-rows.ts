import { sql, type Insertable, type InsertQueryBuilder, type InsertResult } from 'kysely';
import { onPostgres, type Executor } from './executor.js';
import type { Database } from './schema.js';

/** The PostgreSQL type of a column that `insertRows` writes. */
export type ColumnType = 'text' | 'int4' | 'int8';

/** The columns of a table's rows, with their PostgreSQL types: every column an insert must give, and any other it gives. */
export type ColumnTypes<T extends keyof Database> = { readonly [K in keyof Insertable<Database[T]>]: ColumnType };

/**
 * An insert of many rows in one statement; chain `onConflict` or `returning` as on any insert.
 * On PostgreSQL the rows go as one array per column (`insert ... select * from unnest($1::text[],
 * ...)`): a few parameters instead of one per value, which the driver writes and PostgreSQL
 * binds faster (docs/import.md, "Fewer parameters, references checked once per statement"). On
 * SQLite, a VALUES list. `columns` names every column of the rows, in any order (a row with a
 * column it does not name is refused: PostgreSQL would leave that column out).
 */
export function insertRows<T extends keyof Database & string>(
  db: Executor,
  table: T,
  columns: ColumnTypes<T>,
  rows: readonly Insertable<Database[T]>[],
): InsertQueryBuilder<Database, T, InsertResult> {
  const unnamed = rows.length > 0 ? Object.keys(rows[0]).find((name) => !(name in columns)) : undefined;
  if (unnamed !== undefined) throw new Error(`insertRows: ${table}.${unnamed} has no column type`);
  const insert = db.insertInto(table);
  if (!onPostgres(db)) return insert.values(rows);
  const names = Object.keys(columns) as (keyof Insertable<Database[T]> & string)[];
  const arrays = names.map((name) => sql`${rows.map((row) => (row as Record<string, unknown>)[name] ?? null)}::${sql.raw(columns[name] as ColumnType)}[]`);
  return insert.columns(names as never).expression(sql`select * from unnest(${sql.join(arrays)})`);
}
