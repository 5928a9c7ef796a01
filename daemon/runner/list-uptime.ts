import type { StoredCheck } from '../checks/check-rows.js';
import type { AppDeps } from '../deps.js';
import { statesOf } from './check-runtime.js';
import { uptimeOf } from './result-queries.js';

/**
 * The 24-hour uptime (percent, null when nothing ran) of each listed check, by uid: one read of
 * the state rows for the series and one summed read of the aggregates for the whole page, so a
 * list of 500 checks costs two queries rather than one request per row.
 */
export async function uptime24hOf(deps: Pick<AppDeps, 'db' | 'clock'>, checks: readonly StoredCheck[]): Promise<Map<string, number | null>> {
  const nowMs = deps.clock.now().getTime();
  const states = await statesOf(deps.db.kysely, checks.map((check) => check.uid), nowMs);
  const seriesByUid = new Map([...states].map(([uid, row]) => [uid, Number(row.series)]));
  const uptimes = await uptimeOf(deps.db.kysely, [...seriesByUid.values()], '24h', nowMs);
  return new Map(checks.map((check) => [check.uid, uptimes.get(seriesByUid.get(check.uid)!)?.uptimePercent ?? null]));
}
