import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { Db } from '../db/connect.js';
import type { Database } from '../db/schema.js';
import { dropResultPartitionsBefore, ensureResultPartitions } from '../db/result-partitions.js';

/** Hourly and daily aggregates are kept this long (long uptime windows and status pages read them). */
export const HOURLY_RETENTION_DAYS = 400;
/** Checks whose old rows one statement deletes: small statements, so requests never wait long. */
const SERIES_PER_STATEMENT = 200;
/** Raw results (or rows of a deleted check) one statement deletes. */
const ROWS_PER_STATEMENT = 5000;

/** What one pruning removed. */
export interface Pruned {
  /** Rows deleted: results (on PostgreSQL, those of the default partition only), aggregates, and the rows of deleted checks. */
  rows: number;
  /** PostgreSQL: the day partitions of results dropped whole (their rows are not counted). */
  partitions: string[];
}

/**
 * Deletes raw results older than the retention (a few thousand rows per statement) and
 * aggregates older than 400 days, a few checks at a time, yielding between statements; on PostgreSQL old results go by whole day partitions instead (see
 * db/result-partitions.ts), and the partitions of the coming days are made sure of. The rows of
 * deleted checks go too, a batch per statement.
 */
export async function pruneOnce(db: Db, nowMs: number, retentionSeconds: number): Promise<Pruned> {
  const resultsBefore = nowMs - retentionSeconds * 1000;
  const hoursBefore = Math.floor(nowMs / 3_600_000) - HOURLY_RETENTION_DAYS * 24;
  const partitioned = db.kind === 'postgres';
  if (partitioned) await ensureResultPartitions(db.kysely, nowMs);
  const dropped = partitioned ? await dropResultPartitionsBefore(db.kysely, resultsBefore) : { partitions: [], rows: 0 };
  let removed = dropped.rows;
  let after = 0;
  for (;;) {
    const rows = await db.kysely
      .selectFrom('check_states')
      .select('series')
      .where('series', '>', after)
      .orderBy('series')
      .limit(SERIES_PER_STATEMENT)
      .execute();
    if (rows.length === 0) break;
    const series = rows.map((row) => Number(row.series));
    if (!partitioned) for (const one of series) removed += await deleteResultsBefore(db, one, resultsBefore);
    const hours = await db.kysely.deleteFrom('check_hourly').where('series', 'in', series).where('hour', '<', hoursBefore).executeTakeFirst();
    const days = await db.kysely
      .deleteFrom('check_daily')
      .where('series', 'in', series)
      .where('day', '<', Math.floor(hoursBefore / 24))
      .executeTakeFirst();
    removed += Number(hours.numDeletedRows) + Number(days.numDeletedRows);
    // Series are never reused, so a gap between two live ones is a deleted check.
    let previous = after;
    for (const current of series) {
      if (current > previous + 1) removed += await deleteSeriesBetween(db, previous, current);
      previous = current;
    }
    after = series[series.length - 1];
    await yieldToRequests();
  }
  return { rows: removed, partitions: dropped.partitions };
}

/**
 * Deletes the results and aggregates of the series strictly between `above` and `below` (deleted
 * checks), a few thousand rows per statement, so no statement holds locks or a snapshot for long.
 */
export async function deleteSeriesBetween(db: Db, above: number, below: number): Promise<number> {
  let removed = 0;
  for (const [table, column] of [
    ['check_results', 'at'],
    ['check_hourly', 'hour'],
    ['check_daily', 'day'],
  ] as const) {
    removed += await deleteInBatches(db, table, column, (eb) => eb.and([eb('series', '>', above), eb('series', '<', below)]));
  }
  return removed;
}

/**
 * SQLite: deletes one check's results older than `beforeMs`, each statement a range of the
 * primary key of at most ROWS_PER_STATEMENT rows (its end found by one index step).
 */
async function deleteResultsBefore(db: Db, series: number, beforeMs: number): Promise<number> {
  let removed = 0;
  for (;;) {
    const boundary = await db.kysely
      .selectFrom('check_results')
      .select('at')
      .where('series', '=', series)
      .where('at', '<', beforeMs)
      .orderBy('at')
      .limit(1)
      .offset(ROWS_PER_STATEMENT)
      .executeTakeFirst();
    const until = boundary ? Number(boundary.at) : beforeMs;
    const gone = await db.kysely.deleteFrom('check_results').where('series', '=', series).where('at', '<', until).executeTakeFirst();
    removed += Number(gone.numDeletedRows);
    if (!boundary) return removed;
    await yieldToRequests();
  }
}

type KeyedTable = 'check_results' | 'check_hourly' | 'check_daily';

/**
 * Deletes the rows of `table` that `where` selects, ROWS_PER_STATEMENT at a time by primary key
 * (series and `column`), yielding between statements: SQLite's single writer and PostgreSQL's
 * row locks are held for one short statement at a time.
 */
async function deleteInBatches<T extends KeyedTable>(
  db: Db,
  table: T,
  column: 'at' | 'hour' | 'day',
  where: (eb: ExpressionBuilder<Database, T>) => Expression<SqlBool>,
): Promise<number> {
  let removed = 0;
  for (;;) {
    const batch = db.kysely
      .selectFrom(table as KeyedTable)
      .select(['series', column as never])
      .where(where as never)
      .limit(ROWS_PER_STATEMENT);
    const gone = await db.kysely
      .deleteFrom(table as KeyedTable)
      .where((eb) => eb(eb.refTuple('series', column as never), 'in', batch as never))
      .executeTakeFirst();
    removed += Number(gone.numDeletedRows);
    if (Number(gone.numDeletedRows) < ROWS_PER_STATEMENT) return removed;
    await yieldToRequests();
  }
}

const yieldToRequests = () => new Promise((resolve) => setImmediate(resolve));
