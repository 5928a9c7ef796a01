import { sql } from 'kysely';
import type { AppDeps } from '../deps.js';

/** Checks an import creates or changes from which their tables' statistics are refreshed after it. */
export const REFRESH_AFTER_WRITES = 1000;
/** Rows of each index SQLite's ANALYZE samples. */
const SQLITE_SAMPLE_ROWS = 1000;

/**
 * Refreshes the planner's statistics of `checks` and `check_labels`. Right after a bulk import
 * PostgreSQL still believes the tables nearly empty (autovacuum has not run yet) and sorts the
 * whole organization for the first page of the check list; fresh statistics make that page an
 * index range at once. SQLite samples each index (analysis_limit is per connection; 0 restores
 * "all rows"), so that the pause of its one connection stays short.
 */
export async function refreshCheckStatistics(db: AppDeps['db']): Promise<void> {
  const sqlite = db.kind === 'sqlite';
  if (sqlite) await sql`pragma analysis_limit = ${sql.raw(String(SQLITE_SAMPLE_ROWS))}`.execute(db.kysely);
  try {
    await sql`analyze checks`.execute(db.kysely);
    await sql`analyze check_labels`.execute(db.kysely);
  } finally {
    if (sqlite) await sql`pragma analysis_limit = 0`.execute(db.kysely);
  }
}

/**
 * Refreshes the statistics after the response of the import that wrote `writes` checks, when
 * they are many: on PostgreSQL the ANALYZE takes about 100 ms for 10,000 checks, which the
 * import's response no longer waits for. The daemon counts it as work under way, so that a
 * shutdown waits for it; a failure is logged, never thrown.
 */
export function refreshCheckStatisticsAfter(deps: Pick<AppDeps, 'db' | 'lifecycle' | 'logger'>, writes: number): void {
  if (writes < REFRESH_AFTER_WRITES) return;
  deps.lifecycle.enter();
  void refreshCheckStatistics(deps.db)
    .catch((error: unknown) => deps.logger.warn({ err: (error as Error).message }, 'refreshing the check statistics after an import failed'))
    .finally(() => deps.lifecycle.leave());
}
