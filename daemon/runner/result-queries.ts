import type { Executor } from '../checks/check-store.js';
import { validationFailed, type ValidationIssue } from '../errors.js';
import { unknownQueryParameters, type Page } from '../http/pagination.js';
import { BUCKET_COLUMNS, quantile } from './latency-histogram.js';
import { resultView, type ResultView } from './result-codes.js';

/** The query of a check's results. */
export interface ResultsQuery {
  limit: number;
  /** Results strictly older than this (epoch ms): the previous page's `nextCursor`. */
  before?: number;
  from?: number;
  to?: number;
}

const RESULT_PAGE = { defaultLimit: 100, maxLimit: 1000 };

function timeParameter(query: URLSearchParams, name: string, issues: ValidationIssue[]): number | undefined {
  const raw = query.get(name);
  if (raw === null || raw === '') return undefined;
  const at = /^\d+$/.test(raw) ? Number(raw) : Date.parse(raw);
  if (!Number.isFinite(at)) issues.push({ path: name, message: 'must be an ISO-8601 time or epoch milliseconds' });
  return at;
}

/** Reads `?limit=&cursor=&from=&to=` (times as ISO-8601); 400 naming each bad parameter. */
export function parseResultsQuery(query: URLSearchParams): ResultsQuery {
  const issues = unknownQueryParameters(query, ['limit', 'cursor', 'from', 'to']);
  const rawLimit = query.get('limit');
  const limit = rawLimit === null ? RESULT_PAGE.defaultLimit : Number(rawLimit);
  if (rawLimit !== null && (!/^\d+$/.test(rawLimit) || limit < 1 || limit > RESULT_PAGE.maxLimit)) {
    issues.push({ path: 'limit', message: `must be a whole number from 1 to ${RESULT_PAGE.maxLimit}` });
  }
  const cursor = query.get('cursor');
  if (cursor !== null && !/^\d{1,16}$/.test(cursor)) issues.push({ path: 'cursor', message: 'is not a cursor this API returned' });
  const from = timeParameter(query, 'from', issues);
  const to = timeParameter(query, 'to', issues);
  if (issues.length > 0) throw validationFailed(issues, 'The query is not valid.');
  return { limit, before: cursor === null ? undefined : Number(cursor), from, to };
}

const DAY_MS = 86_400_000;

/**
 * How far back from the newest time asked for a page of results is looked for first, then
 * second, then without a bound. On PostgreSQL results are partitioned by day, and a query bounded
 * in time plans and reads only the days it covers: unbounded, the first page of a check planned
 * every day kept (1.6-5.7 ms of planning and 1.1-1.9 ms of execution with 98 day partitions,
 * against 0.16-0.29 ms and 0.06-0.10 ms bounded to the last day). Most pages fill from the last
 * day; a check that runs rarely widens to a week, then to everything.
 */
const SEARCH_WINDOWS_MS = [DAY_MS, 7 * DAY_MS, Number.POSITIVE_INFINITY];

/**
 * A page of one check's results, newest first; the cursor is the last item's time. `nowMs` is
 * where the search starts when the query names no newer bound (a cursor or `to`).
 */
export async function listResults(db: Executor, series: number, query: ResultsQuery, nowMs: number): Promise<Page<ResultView>> {
  let asked = db.selectFrom('check_results').select(['at', 'status', 'latency_ms', 'message']).where('series', '=', series);
  if (query.before !== undefined) asked = asked.where('at', '<', query.before);
  if (query.from !== undefined) asked = asked.where('at', '>=', query.from);
  if (query.to !== undefined) asked = asked.where('at', '<=', query.to);
  const newest = query.before ?? (query.to !== undefined ? query.to + 1 : nowMs);
  for (const windowMs of SEARCH_WINDOWS_MS) {
    // Only a bound that narrows the query is added; the last window has none.
    const lowest = newest - windowMs;
    const bounded = Number.isFinite(lowest) && (query.from === undefined || query.from < lowest);
    const rows = await (bounded ? asked.where('at', '>=', lowest) : asked)
      .orderBy('at', 'desc')
      .limit(query.limit + 1)
      .execute();
    // The window is the newest part of what was asked for: once it holds more than a page, that page and whether another follows are the answer.
    if (bounded && rows.length <= query.limit) continue;
    const page = rows.slice(0, query.limit);
    return { items: page.map(resultView), nextCursor: rows.length > query.limit ? String(page[page.length - 1].at) : null };
  }
  throw new Error('unreachable: the last search window is unbounded');
}

/** The uptime windows, in hours. */
export const UPTIME_WINDOWS = { '24h': 24, '7d': 168, '30d': 720, '90d': 2160 } as const;
export type UptimeWindow = keyof typeof UPTIME_WINDOWS;

/** Uptime of one check over a window, from the hourly aggregates. */
export interface Uptime {
  window: UptimeWindow;
  /** Share of runs that were not down, in percent; null when nothing ran. */
  uptimePercent: number | null;
  runs: number;
  downRuns: number;
  latencyP50Ms: number | null;
  latencyP95Ms: number | null;
  buckets?: Array<{ start: string; uptimePercent: number | null; runs: number }>;
}

const percent = (runs: number, down: number): number | null => (runs === 0 ? null : Math.round(((runs - down) / runs) * 100_000) / 1000);

/**
 * Uptime of several checks (by series) over the window ending now, read from the hourly
 * aggregates only and summed by the database (one range of the primary key per check), so 90
 * days of 100 checks is one query answering 100 rows. `bucket` adds per-hour or per-day figures.
 */
export async function uptimeOf(
  db: Executor,
  seriesList: readonly number[],
  window: UptimeWindow,
  nowMs: number,
  bucket?: 'hour' | 'day',
): Promise<Map<number, Uptime>> {
  const lastHour = Math.floor(nowMs / 3_600_000);
  const firstHour = lastHour - UPTIME_WINDOWS[window] + 1;
  const out = new Map<number, Uptime>();
  if (seriesList.length === 0) return out;
  // The whole days inside the window come from the daily aggregates, the hours at its edges from
  // the hourly ones: at most 2 x 23 hourly rows and 90 daily rows per check for 90 days.
  const firstDay = Math.ceil(firstHour / 24);
  const lastDay = Math.floor((lastHour + 1) / 24) - 1;
  const hourRanges: Array<[number, number]> =
    lastDay < firstDay
      ? [[firstHour, lastHour]]
      : [
          [firstHour, firstDay * 24 - 1],
          [(lastDay + 1) * 24, lastHour],
        ];
  const parts = await Promise.all([
    ...(lastDay < firstDay ? [] : [sumsOf(db, 'check_daily', 'day', seriesList, firstDay, lastDay)]),
    ...hourRanges.filter(([from, to]) => from <= to).map(([from, to]) => sumsOf(db, 'check_hourly', 'hour', seriesList, from, to)),
  ]);
  const totals = new Map<number, Sums>();
  for (const row of parts.flat()) {
    const series = Number(row.series);
    const sum = totals.get(series);
    if (!sum) totals.set(series, row);
    else for (const key of SUM_COLUMNS) sum[key] = Number(sum[key]) + Number(row[key]);
  }
  const bySeries = totals;
  for (const series of seriesList) {
    const row = bySeries.get(series);
    const runs = Number(row?.runs ?? 0);
    const down = Number(row?.down_runs ?? 0);
    const histogram = BUCKET_COLUMNS.map((column) => Number(row?.[column] ?? 0));
    out.set(series, {
      window,
      uptimePercent: percent(runs, down),
      runs,
      downRuns: down,
      latencyP50Ms: quantile(histogram, 0.5),
      latencyP95Ms: quantile(histogram, 0.95),
      ...(bucket ? { buckets: await bucketsOf(db, series, firstHour, lastHour, bucket) } : {}),
    });
  }
  return out;
}

/** Per-hour or per-day figures of one check, for the hours that had runs. */
async function bucketsOf(db: Executor, series: number, firstHour: number, lastHour: number, bucket: 'hour' | 'day'): Promise<NonNullable<Uptime['buckets']>> {
  const hours = await db
    .selectFrom('check_hourly')
    .select(['hour', 'runs', 'down_runs'])
    .where('series', '=', series)
    .where('hour', '>=', firstHour)
    .where('hour', '<=', lastHour)
    .orderBy('hour')
    .execute();
  const buckets = new Map<number, { runs: number; down: number }>();
  for (const hour of hours) {
    const start = bucket === 'hour' ? hour.hour * 3_600_000 : Math.floor(hour.hour / 24) * 86_400_000;
    const entry = buckets.get(start) ?? { runs: 0, down: 0 };
    entry.runs += hour.runs;
    entry.down += hour.down_runs;
    buckets.set(start, entry);
  }
  return [...buckets].map(([start, entry]) => ({ start: new Date(start).toISOString(), uptimePercent: percent(entry.runs, entry.down), runs: entry.runs }));
}

const SUM_COLUMNS = ['runs', 'down_runs', ...BUCKET_COLUMNS] as const;
type Sums = { series: number } & Record<(typeof SUM_COLUMNS)[number], number>;

/** Per-check sums of an aggregate table over one range of its time column (a primary-key range per check). */
async function sumsOf(
  db: Executor,
  table: 'check_hourly' | 'check_daily',
  column: 'hour' | 'day',
  seriesList: readonly number[],
  from: number,
  to: number,
): Promise<Sums[]> {
  return (await db
    .selectFrom(table as 'check_hourly')
    .select((eb) => ['series', ...SUM_COLUMNS.map((name) => eb.fn.sum<number>(name).as(name))])
    .where('series', 'in', seriesList)
    .where(column as 'hour', '>=', from)
    .where(column as 'hour', '<=', to)
    .groupBy('series')
    .execute()) as unknown as Sums[];
}
