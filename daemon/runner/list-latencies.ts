import type { StoredCheck } from '../checks/check-rows.js';
import type { AppDeps } from '../deps.js';
import { statesOf } from './check-runtime.js';

/** How many response times `?include=latencies` gives each listed check. */
export const RECENT_LATENCY_POINTS = 20;

// SQLite allows at most 500 terms in one compound SELECT; a page of checks is read in parts.
const CHECKS_PER_QUERY = 100;

/**
 * The response times of the last runs of each listed check, oldest first, by uid (empty when it
 * never ran). Each check's runs are one short range of the results' primary key, newest first;
 * the ranges of a page are read in one statement (UNION ALL), so a page costs one or a few queries.
 */
export async function recentLatenciesOf(deps: Pick<AppDeps, 'db' | 'clock'>, checks: readonly StoredCheck[]): Promise<Map<string, number[]>> {
  const db = deps.db.kysely;
  const states = await statesOf(db, checks.map((check) => check.uid), deps.clock.now().getTime());
  const seriesList = [...states.values()].map((row) => Number(row.series));
  const bySeries = new Map<number, Array<{ at: number; latency: number }>>(seriesList.map((series) => [series, []]));
  for (let start = 0; start < seriesList.length; start += CHECKS_PER_QUERY) {
    const [first, ...rest] = seriesList.slice(start, start + CHECKS_PER_QUERY);
    const lastRuns = (series: number) =>
      db
        .selectFrom((eb) =>
          eb.selectFrom('check_results').select(['series', 'at', 'latency_ms']).where('series', '=', series).orderBy('at', 'desc').limit(RECENT_LATENCY_POINTS).as('recent'),
        )
        .selectAll('recent');
    let query = lastRuns(first);
    for (const series of rest) query = query.unionAll(lastRuns(series));
    for (const row of await query.execute()) bySeries.get(Number(row.series))?.push({ at: Number(row.at), latency: Number(row.latency_ms) });
  }
  return new Map(
    checks.map((check) => {
      const runs = bySeries.get(Number(states.get(check.uid)?.series)) ?? [];
      return [check.uid, runs.sort((a, b) => a.at - b.at).map((run) => run.latency)];
    }),
  );
}
