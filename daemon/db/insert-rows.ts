import { sql, type Insertable, type InsertQueryBuilder, type InsertResult } from 'kysely';
import { onPostgres, type Executor } from './executor.js';
import type { Database } from './schema.js';

/** The tables written many rows at a time (an import's checks, the states of new checks). */
export type BulkTable = 'checks' | 'check_states';

type ColumnType = 'text' | 'int4' | 'int8';

/** The PostgreSQL type of every column an insert of each bulk table gives (a generated one, such as `series`, is left out). */
const COLUMN_TYPES: { readonly [T in BulkTable]: { readonly [K in keyof Insertable<Database[T]>]: ColumnType } } = {
  checks: {
    uid: 'text',
    organization_uid: 'text',
    slug: 'text',
    name: 'text',
    type: 'text',
    enabled: 'int4',
    interval_seconds: 'int4',
    target: 'text',
    config: 'text',
    thresholds: 'text',
    labels: 'text',
    description: 'text',
    created_at: 'text',
    updated_at: 'text',
  },
  check_states: {
    check_uid: 'text',
    next_run_at: 'int8',
    lease_owner: 'text',
    state: 'text',
    state_since: 'text',
    fail_streak: 'int4',
    success_streak: 'int4',
    last_at: 'int8',
    last_status: 'int4',
    last_latency_ms: 'int4',
    last_message: 'text',
    incident_uid: 'text',
    ping_token: 'text',
    last_ping_at: 'int8',
    armed_at: 'int8',
  },
};

/**
 * An insert of many rows in one statement; chain `onConflict` or `returning` as on any insert.
 * On PostgreSQL the rows go as one array per column (`insert ... select * from unnest($1::text[],
 * ...)`): a few parameters instead of one per value, which the driver writes and PostgreSQL
 * binds faster (docs/import.md, "Fewer parameters, references checked once per statement"). On
 * SQLite, a VALUES list. Every column of the table but a generated one is written (null where a
 * row has none); a row with a column the table's types do not name is refused, on both.
 */
export function insertRows<T extends BulkTable>(
  db: Executor,
  table: T,
  rows: readonly Insertable<Database[T]>[],
): InsertQueryBuilder<Database, T, InsertResult> {
  const columns: Record<string, ColumnType> = COLUMN_TYPES[table];
  const unnamed = rows.length > 0 ? Object.keys(rows[0]).find((name) => !(name in columns)) : undefined;
  if (unnamed !== undefined) throw new Error(`insertRows: ${table}.${unnamed} has no column type`);
  const insert = db.insertInto(table);
  if (!onPostgres(db)) return insert.values(rows);
  const names = Object.keys(columns);
  const arrays = names.map((name) => sql`${rows.map((row) => (row as Record<string, unknown>)[name] ?? null)}::${sql.raw(columns[name])}[]`);
  return insert.columns(names as never).expression(sql`select * from unnest(${sql.join(arrays)})`);
}
