import { checkNotFound } from '../checks/check-commands.js';
import { findChecksBySlugs, type Executor } from '../checks/check-store.js';
import { statesOf } from '../runner/check-runtime.js';
import { resultView, type ResultView } from '../runner/result-codes.js';

/** Checks one stream may follow run by run (`?results=`): a page of the check list at most. */
export const MAX_RESULT_CHECKS = 500;

// Series per look-up: one parameter each, well under both engines' limits.
const SERIES_PER_QUERY = 500;

/** The result series of the named checks of an organization, with their slugs; 404 for a slug that names none. */
export async function resultSeriesOf(db: Executor, organizationUid: string, slugs: readonly string[], nowMs: number): Promise<Map<number, string>> {
  const checks = await findChecksBySlugs(db, organizationUid, slugs);
  const missing = slugs.find((slug) => !checks.has(slug));
  if (missing) throw checkNotFound(missing);
  const states = await statesOf(
    db,
    [...checks.values()].map((check) => check.uid),
    nowMs,
  );
  return new Map([...checks.values()].map((check) => [Number(states.get(check.uid)!.series), check.slug]));
}

/**
 * The latest run of the checks some stream follows, read from their state rows (written in the
 * transaction that stores the results): what a poll costs grows with the checks followed, not with
 * how many runs all checks make. Runs closer together than a poll are told as the latest one.
 */
export class ResultWatch {
  /** Each followed series and the time of the last run already told (null: it never ran). */
  private readonly told = new Map<number, number | null>();

  get size(): number {
    return this.told.size;
  }

  /** Starts following series: what they ran so far counts as told. */
  async follow(db: Executor, series: Iterable<number>): Promise<void> {
    const fresh = [...series].filter((one) => !this.told.has(one));
    for (const row of await this.latest(db, fresh)) if (!this.told.has(row.series)) this.told.set(row.series, row.at);
    for (const one of fresh) if (!this.told.has(one)) this.told.set(one, null);
  }

  /** Keeps following only these series. */
  keep(series: Set<number>): void {
    for (const one of this.told.keys()) if (!series.has(one)) this.told.delete(one);
  }

  /** The runs made since the last look, one per series (its latest). */
  async newRuns(db: Executor): Promise<Array<{ series: number; result: ResultView }>> {
    const runs: Array<{ series: number; result: ResultView }> = [];
    for (const row of await this.latest(db, [...this.told.keys()])) {
      const told = this.told.get(row.series);
      if (told === undefined || row.at === null || (told !== null && row.at <= told)) continue;
      this.told.set(row.series, row.at);
      runs.push({ series: row.series, result: row.result! });
    }
    return runs;
  }

  private async latest(db: Executor, series: readonly number[]): Promise<Array<{ series: number; at: number | null; result?: ResultView }>> {
    const rows: Array<{ series: number; at: number | null; result?: ResultView }> = [];
    for (let start = 0; start < series.length; start += SERIES_PER_QUERY) {
      const found = await db
        .selectFrom('check_states')
        .select(['series', 'last_at', 'last_status', 'last_latency_ms', 'last_message'])
        .where('series', 'in', series.slice(start, start + SERIES_PER_QUERY))
        .execute();
      for (const row of found) {
        const at = row.last_at === null ? null : Number(row.last_at);
        rows.push({
          series: Number(row.series),
          at,
          result:
            at === null || row.last_status === null
              ? undefined
              : resultView({ at, status: row.last_status, latency_ms: row.last_latency_ms ?? 0, message: row.last_message }),
        });
      }
    }
    return rows;
  }
}
