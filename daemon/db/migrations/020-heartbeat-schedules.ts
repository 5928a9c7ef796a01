import { PostgresAdapter, type Kysely } from 'kysely';

/**
 * Heartbeat runs: when the job said it started (`/start`), until it reports how it ended. The
 * run's duration is then its latency; a start with no end within the grace time is down.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const bigint = db.getExecutor().adapter instanceof PostgresAdapter ? 'bigint' : 'integer';
  await db.schema.alterTable('check_states').addColumn('run_started_at', bigint).execute();
}
