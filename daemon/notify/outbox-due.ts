import type { Db } from '../db/connect.js';
import { preparedRead } from '../db/prepared-read.js';
import type { OutboxTable } from './outbox-statistics.js';

// Whether an outbox has a message due, asked before each lease: most looks find nothing, and
// one prepared read of the due index (status, next_attempt_at) costs far less than the leasing
// UPDATE that would find nothing (see docs/monitoring.md, "Polls that find nothing").

const dueRead = (table: OutboxTable) =>
  preparedRead((db, at: string) => db.selectFrom(table).select('uid').where('status', '=', 'pending').where('next_attempt_at', '<=', at).limit(1));

/** One prepared read per outbox (a prepared read is compiled once per database, by identity). */
const DUE_READS: Record<OutboxTable, ReturnType<typeof dueRead>> = {
  notification_outbox: dueRead('notification_outbox'),
  status_page_mail: dueRead('status_page_mail'),
};

/** Whether a pending message of `table` is due at `at` (an ISO time), leased or not. */
export async function anyMessageDue(db: Db, table: OutboxTable, at: string): Promise<boolean> {
  return (await db.readOne(DUE_READS[table], at)) !== undefined;
}
