import { sql } from 'kysely';
import type { Executor } from '../checks/check-store.js';
import { onPostgres } from '../db/executor.js';

/** How many response times `?include=latencies` gives each listed check. */
export const RECENT_LATENCY_POINTS = 20;

// SQLite allows at most 500 terms in one compound SELECT; a page of checks is read in parts.
const CHECKS_PER_QUERY = 100;
/** PostgreSQL first looks this far back, so only the partitions of the last days are searched. */
const RECENT_WINDOW_MS = 2 * 86_400_000;

type Run = { series: number; at: number; latency_ms: number };

/**
 * The response times of the last runs of each listed check, oldest first, by uid (empty when it
 * never ran), from the series of the page's checks. Each check's runs are one short range of the
 * results' primary key, newest first, and a page costs one or a few queries: on SQLite the
 * ranges are joined with UNION ALL; on PostgreSQL one statement walks the page's series
 * (LATERAL) over the partitions of the last two days, and a second one, unbounded, serves only
 * the checks that ran fewer times than that in those days.
 */
export async function recentLatenciesOf(db: Executor, seriesOf: Map<string, number>, nowMs: number): Promise<Map<string, number[]>> {
  const seriesList = [...seriesOf.values()];
  const bySeries = new Map<number, Array<{ at: number; latency: number }>>(seriesList.map((series) => [series, []]));
  const add = (rows: Run[]) => {
    for (const row of rows) bySeries.get(Number(row.series))?.push({ at: Number(row.at), latency: Number(row.latency_ms) });
  };
  if (onPostgres(db)) {
    add(await lastRunsLateral(db, seriesList, nowMs - RECENT_WINDOW_MS, nowMs + 86_400_000));
    const short = seriesList.filter((series) => bySeries.get(series)!.length < RECENT_LATENCY_POINTS);
    if (short.length > 0) {
      for (const series of short) bySeries.set(series, []);
      add(await lastRunsLateral(db, short));
    }
  } else {
    for (let start = 0; start < seriesList.length; start += CHECKS_PER_QUERY) add(await lastRunsUnion(db, seriesList.slice(start, start + CHECKS_PER_QUERY)));
  }
  return new Map(
    [...seriesOf].map(([uid, series]) => [
      uid,
      bySeries
        .get(series)!
        .sort((a, b) => a.at - b.at)
        .map((run) => run.latency),
    ]),
  );
}

/** PostgreSQL: the last runs of each series, in one statement planned once whatever their number. */
async function lastRunsLateral(db: Executor, series: number[], fromMs?: number, toMs?: number): Promise<Run[]> {
  if (series.length === 0) return [];
  // Literal bounds let the planner leave out the partitions of other days.
  const window = fromMs === undefined ? sql`` : sql`and r.at >= ${sql.lit(Math.floor(fromMs))} and r.at < ${sql.lit(Math.floor(toMs!))}`;
  const { rows } = await sql<Run>`
    select s.series, last.at, last.latency_ms
    from unnest(${series}::int[]) as s(series)
    cross join lateral (
      select r.at, r.latency_ms from check_results r
      where r.series = s.series ${window}
      order by r.at desc limit ${RECENT_LATENCY_POINTS}
    ) as last`.execute(db);
  return rows;
}

/** SQLite: one short primary-key range per series, joined with UNION ALL. */
async function lastRunsUnion(db: Executor, series: number[]): Promise<Run[]> {
  const [first, ...rest] = series;
  const lastRuns = (one: number) =>
    db
      .selectFrom((eb) =>
        eb
          .selectFrom('check_results')
          .select(['series', 'at', 'latency_ms'])
          .where('series', '=', one)
          .orderBy('at', 'desc')
          .limit(RECENT_LATENCY_POINTS)
          .as('recent'),
      )
      .selectAll('recent');
  let query = lastRuns(first);
  for (const one of rest) query = query.unionAll(lastRuns(one));
  return (await query.execute()) as Run[];
}
