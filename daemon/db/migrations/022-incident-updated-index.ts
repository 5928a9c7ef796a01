import type { Kysely } from 'kysely';

/**
 * The live-event poller reads the incidents moved on since its last look (`updated_at >= ?`,
 * oldest first) every half second, and the newest `updated_at` when it starts: both are one
 * range of this index instead of a scan of every incident (docs/monitoring.md, "Live events").
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('incidents_updated_at').on('incidents').column('updated_at').execute();
}
