import type { Executor } from '../checks/check-store.js';

/** How many response times `?include=latencies` gives each listed check. */
export const RECENT_LATENCY_POINTS = 20;

// SQLite allows at most 500 terms in one compound SELECT; a page of checks is read in parts.
const CHECKS_PER_QUERY = 100;

/**
 * The response times of the last runs of each listed check, oldest first, by uid (empty when it
 * never ran), from the series of the page's checks. Each check's runs are one short range of the results' primary key, newest first;
 * the ranges of a page are read in one statement (UNION ALL), so a page costs one or a few queries.
 */
export async function recentLatenciesOf(db: Executor, seriesOf: Map<string, number>): Promise<Map<string, number[]>> {
  const seriesList = [...seriesOf.values()];
  const bySeries = new Map<number, Array<{ at: number; latency: number }>>(seriesList.map((series) => [series, []]));
  for (let start = 0; start < seriesList.length; start += CHECKS_PER_QUERY) {
    const [first, ...rest] = seriesList.slice(start, start + CHECKS_PER_QUERY);
    const lastRuns = (series: number) =>
      db
        .selectFrom((eb) =>
          eb
            .selectFrom('check_results')
            .select(['series', 'at', 'latency_ms'])
            .where('series', '=', series)
            .orderBy('at', 'desc')
            .limit(RECENT_LATENCY_POINTS)
            .as('recent'),
        )
        .selectAll('recent');
    let query = lastRuns(first);
    for (const series of rest) query = query.unionAll(lastRuns(series));
    for (const row of await query.execute()) bySeries.get(Number(row.series))?.push({ at: Number(row.at), latency: Number(row.latency_ms) });
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
