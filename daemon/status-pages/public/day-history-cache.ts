import type { Executor } from '../../db/executor.js';

/** How long the finished days of a check are kept in memory before they are read again. */
const TTL_MS = 60_000;
const MAX_SERIES = 10_000;

type Counts = { runs: number; down: number };

interface Entry {
  /** The day the entry was read on: it holds the days before it. */
  today: number;
  firstDay: number;
  readAt: number;
  byDay: Map<number, Counts>;
}

/**
 * The daily aggregates of the days before today, per check, kept in memory for a minute: those
 * rows no longer change (runs write the current day; a result arriving late is shown within the
 * minute), so a page read many times a second costs one small query for today's rows instead of
 * 90 rows per check. One cache per app (AppCaches), so daemons sharing a process never mix series.
 */
export class DayHistoryCache {
  private readonly entries = new Map<number, Entry>();

  /** Runs and down runs per series and day, from `firstDay` to `today` inclusive. */
  async read(db: Executor, seriesList: readonly number[], firstDay: number, today: number, nowMs: number): Promise<Map<number, Map<number, Counts>>> {
    const stale = seriesList.filter((series) => {
      const entry = this.entries.get(series);
      return !entry || entry.today !== today || entry.firstDay !== firstDay || nowMs - entry.readAt > TTL_MS || nowMs < entry.readAt;
    });
    const staleSet = new Set(stale);
    const fresh = seriesList.filter((series) => !staleSet.has(series));
    // Whole windows of the stale checks, and only today of the others.
    const [whole, todays] = await Promise.all([rows(db, stale, firstDay, today), rows(db, fresh, today, today)]);
    const out = new Map<number, Map<number, Counts>>(seriesList.map((series) => [series, new Map()]));
    for (const series of stale) this.entries.delete(series);
    for (const row of whole) out.get(row.series)!.set(row.day, row);
    for (const series of stale) {
      const past = new Map([...out.get(series)!].filter(([day]) => day < today));
      this.entries.set(series, { today, firstDay, readAt: nowMs, byDay: past });
    }
    for (const series of fresh) {
      const days = out.get(series)!;
      for (const [day, counts] of this.entries.get(series)!.byDay) days.set(day, counts);
    }
    for (const row of todays) out.get(row.series)!.set(row.day, row);
    // Bounded: past the limit the oldest entries go (Map keeps insertion order).
    for (const series of this.entries.keys()) {
      if (this.entries.size <= MAX_SERIES) break;
      this.entries.delete(series);
    }
    return out;
  }
}

async function rows(db: Executor, seriesList: readonly number[], from: number, to: number): Promise<Array<Counts & { series: number; day: number }>> {
  if (seriesList.length === 0) return [];
  const found = await db
    .selectFrom('check_daily')
    .select(['series', 'day', 'runs', 'down_runs'])
    .where('series', 'in', seriesList)
    .where('day', '>=', from)
    .where('day', '<=', to)
    .execute();
  return found.map((row) => ({ series: Number(row.series), day: Number(row.day), runs: Number(row.runs), down: Number(row.down_runs) }));
}
