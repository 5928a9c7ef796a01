import { sql } from 'kysely';
import type { Db } from '../db/connect.js';

/** How often at most a daemon refreshes one outbox's statistics while its leases come back full (a burst). */
const REFRESH_EVERY_MS = 60_000;

/** The outboxes leased in batches by their due time: notifications, and the mail of status-page subscribers. */
export type OutboxTable = 'notification_outbox' | 'status_page_mail';

/**
 * PostgreSQL: keeps the planner's statistics of an outbox fresh through a burst. A burst of
 * messages (many incidents at once, an update to thousands of subscribers) lands in a table whose
 * statistics still say next to nothing is pending; each lease then reads and sorts every due
 * message to take its batch (12 ms with 2,000 notifications due, 10.5 ms with 20,000 subscriber
 * mails) instead of walking the due index in order and stopping at the batch (1.2 and 1.3 ms).
 * Autovacuum would catch up only a minute or more later. The answer is told after each lease
 * whether it came back full, and then runs ANALYZE, at most once a minute. SQLite plans without
 * such statistics: nothing to do there.
 */
export function outboxStatistics(db: Db, table: OutboxTable): (leasedFull: boolean) => Promise<void> {
  let refreshedAt = Number.NEGATIVE_INFINITY;
  return async (leasedFull) => {
    if (db.kind !== 'postgres' || !leasedFull || Date.now() - refreshedAt < REFRESH_EVERY_MS) return;
    refreshedAt = Date.now();
    await sql`analyze ${sql.table(table)}`.execute(db.kysely);
  };
}
