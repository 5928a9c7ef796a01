import { PostgresAdapter, sql, type Kysely } from 'kysely';
import { createDayPartition, DAY_MS, dayStart, PARTITION_DAYS_AHEAD } from '../result-partitions.js';

/**
 * PostgreSQL: check_results becomes a table partitioned by day on `at` (see result-partitions.ts),
 * with a default partition for results of a day that has none. The primary key (series, at)
 * holds the partition key, as PostgreSQL requires; no table refers to results. Existing results
 * are copied into the partitions of their days. SQLite keeps its one table, pruned in batches.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`alter table check_results rename to check_results_unpartitioned`.execute(db);
  await sql`alter table check_results_unpartitioned rename constraint check_results_pk to check_results_unpartitioned_pk`.execute(db);
  await sql`
    create table check_results (
      series integer not null,
      at bigint not null,
      status smallint not null,
      latency_ms integer not null,
      message text,
      constraint check_results_pk primary key (series, at)
    ) partition by range (at)`.execute(db);
  await sql`create table check_results_default partition of check_results default`.execute(db);
  const { rows } = await sql<{ first: string | null; last: string | null }>`
    select min(at) as first, max(at) as last from check_results_unpartitioned`.execute(db);
  const now = Date.now();
  const first = rows[0]?.first === null || rows[0]?.first === undefined ? now : Math.min(Number(rows[0].first), now);
  const last = Math.max(rows[0]?.last === null || rows[0]?.last === undefined ? now : Number(rows[0].last), now + PARTITION_DAYS_AHEAD * DAY_MS);
  for (let day = dayStart(first); day <= dayStart(last); day += DAY_MS) await createDayPartition(db, day);
  await sql`insert into check_results select series, at, status, latency_ms, message from check_results_unpartitioned`.execute(db);
  await sql`drop table check_results_unpartitioned`.execute(db);
}
