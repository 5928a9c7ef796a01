import { sql, type Insertable, type InsertQueryBuilder, type InsertResult } from 'kysely';
import { onPostgres, type Executor } from './executor.js';
import type { Database } from './schema.js';

/** The tables written many rows at a time (an import's checks and baselines, the states of new checks). */
export type BulkTable = 'checks' | 'check_states' | 'check_import_baselines';

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
  check_import_baselines: {
    check_uid: 'text',
    organization_uid: 'text',
    source: 'text',
    definition: 'text',
    imported_at: 'text',
  },
};

/**
 * An insert of many rows in one statement; chain `onConflict` or `returning` as on any insert.
 * On PostgreSQL the rows go as one array per column (`insert ... select * from unnest($1::text[],
 * ...)`): a few parameters instead of one per value, which the driver writes and PostgreSQL
 * binds faster (docs/import.md, "Fewer parameters, references checked once per statement"), each
 * written as an array literal here (arrayLiteral). On
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
  const arrays = names.map((name) => sql`${arrayLiteral(rows.map((row) => (row as Record<string, unknown>)[name]))}::${sql.raw(columns[name])}[]`);
  return insert.columns(names as never).expression(sql`select * from unnest(${sql.join(arrays)})`);
}

// JSON.stringify quotes a text exactly as an array literal does unless it holds a control
// character (JSON writes `\n`, which an array literal reads as `n`) or a UTF-16 surrogate (JSON
// writes a lone one as `\udXXX`).
const JSON_QUOTES_OTHERWISE = /[\u0000-\u001f\ud800-\udfff]/;

/** Whether JSON.stringify writes `value` as an array literal's element (a null as `null`, which the literal reads as NULL). */
const writtenAlike = (value: unknown) =>
  value === null || value === undefined || (typeof value === 'string' ? !JSON_QUOTES_OTHERWISE.test(value) : Number.isSafeInteger(value));

/**
 * `values` as the text of a PostgreSQL array literal: `{"a","b \\"c\\"",NULL,42}`, what the
 * driver writes for a JavaScript array. The driver escapes each text with two replacements and
 * joins the pieces; an import's columns are mostly JSON, full of quotes, and a list that
 * JSON.stringify writes alike is written by it in one native pass instead, about a fifth of the
 * time with what it costs the collector (docs/import.md). Otherwise each element: inside quotes
 * an array literal reads a backslash as "the next character as it is", so a backslash and a
 * quote are each preceded by one; null and undefined are NULL. Only texts and integers are
 * written (the column types above).
 */
export function arrayLiteral(values: readonly unknown[]): string {
  if (values.every(writtenAlike)) return `{${JSON.stringify(values).slice(1, -1)}}`;
  return `{${values.map(element).join(',')}}`;
}

function element(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'string') return `"${value.replace(/[\\"]/g, '\\$&')}"`;
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  throw new Error(`arrayLiteral: a ${typeof value} is neither a text nor a number`);
}
