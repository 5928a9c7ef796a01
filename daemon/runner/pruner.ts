import type { Db } from '../db/connect.js';

/** Hourly and daily aggregates are kept this long (long uptime windows and status pages read them). */
export const HOURLY_RETENTION_DAYS = 400;
/** Checks whose old rows one statement deletes: small statements, so requests never wait long. */
const SERIES_PER_STATEMENT = 200;

/**
 * Deletes raw results older than the retention and aggregates older than 400 days, a
 * few checks at a time (each statement a range of the primary key), yielding between
 * statements. Answers how many rows went.
 */
export async function pruneOnce(db: Db, nowMs: number, retentionSeconds: number): Promise<number> {
  const resultsBefore = nowMs - retentionSeconds * 1000;
  const hoursBefore = Math.floor(nowMs / 3_600_000) - HOURLY_RETENTION_DAYS * 24;
  let removed = 0;
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
    const results = await db.kysely.deleteFrom('check_results').where('series', 'in', series).where('at', '<', resultsBefore).executeTakeFirst();
    const hours = await db.kysely.deleteFrom('check_hourly').where('series', 'in', series).where('hour', '<', hoursBefore).executeTakeFirst();
    const days = await db.kysely
      .deleteFrom('check_daily')
      .where('series', 'in', series)
      .where('day', '<', Math.floor(hoursBefore / 24))
      .executeTakeFirst();
    removed += Number(results.numDeletedRows) + Number(hours.numDeletedRows) + Number(days.numDeletedRows);
    // Series are never reused, so a gap between two live ones is a deleted check: its rows go
    // with one primary-key range each (empty, and cheap, once they are gone).
    let previous = after;
    for (const current of series) {
      if (current > previous + 1) {
        for (const table of ['check_results', 'check_hourly', 'check_daily'] as const) {
          const gone = await db.kysely.deleteFrom(table).where('series', '>', previous).where('series', '<', current).executeTakeFirst();
          removed += Number(gone.numDeletedRows);
        }
      }
      previous = current;
    }
    after = series[series.length - 1];
    await new Promise((resolve) => setImmediate(resolve));
  }
  return removed;
}
