import type { AppDeps } from '../deps.js';
import { uptimeOf } from './result-queries.js';

/**
 * The 24-hour uptime (percent, null when nothing ran) of each listed check, by uid, from the
 * series of the page's checks: one summed read of the aggregates for the whole page, so a list
 * of 500 checks costs one query rather than one request per row.
 */
export async function uptime24hOf(deps: Pick<AppDeps, 'db' | 'clock'>, seriesOf: Map<string, number>): Promise<Map<string, number | null>> {
  const uptimes = await uptimeOf(deps.db.kysely, [...seriesOf.values()], '24h', deps.clock.now().getTime());
  return new Map([...seriesOf].map(([uid, series]) => [uid, uptimes.get(series)?.uptimePercent ?? null]));
}
