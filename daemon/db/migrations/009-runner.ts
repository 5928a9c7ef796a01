import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * The monitoring engine: each check's schedule, lease and state (check_states), its raw results
 * (check_results), hourly and daily aggregates (check_hourly, check_daily) and the state changes
 * kept with incidents.
 * Results are keyed by a small integer per check (`series`) and epoch milliseconds, so one
 * stored result is a few dozen bytes.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const sqlite = !(db.getExecutor().adapter instanceof PostgresAdapter);
  // SQLite: a table clustered on its primary key, with no hidden rowid beside it.
  const clustered = (builder: any) => (sqlite ? builder.modifyEnd(sql`without rowid`) : builder);
  const bigint = sqlite ? 'integer' : 'bigint';

  await db.schema
    .createTable('check_states')
    // Numbered as rows come and never reused (SQLite's autoincrement, PostgreSQL's serial), so
    // the results of a deleted check are never taken for a new one's.
    .addColumn('series', sqlite ? 'integer' : 'serial', (c) => (sqlite ? c.primaryKey().autoIncrement() : c.primaryKey()))
    .addColumn('check_uid', 'text', (c) => c.notNull().unique().references('checks.uid').onDelete('cascade'))
    // When the next run is due (epoch ms). A claim pushes it to the lease's end, so a run whose
    // runner dies becomes due again by itself.
    .addColumn('next_run_at', bigint, (c) => c.notNull())
    .addColumn('lease_owner', 'text')
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('state_since', 'text', (c) => c.notNull())
    .addColumn('fail_streak', 'integer', (c) => c.notNull())
    .addColumn('success_streak', 'integer', (c) => c.notNull())
    .addColumn('last_at', bigint)
    .addColumn('last_status', 'integer')
    .addColumn('last_latency_ms', 'integer')
    .addColumn('last_message', 'text')
    // The open incident of the current down period, if any.
    .addColumn('incident_uid', 'text', (c) => c.references('incidents.uid').onDelete('set null'))
    // Heartbeat: the secret part of the ping URL, stored as is (it only lets its holder record a
    // ping) so that members who read the check can be shown the URL.
    .addColumn('ping_token', 'text', (c) => c.notNull().unique())
    .addColumn('last_ping_at', bigint)
    // Since when a heartbeat's deadline runs when no ping has come yet (epoch ms).
    .addColumn('armed_at', bigint, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('check_states_due').on('check_states').columns(['next_run_at']).execute();

  await clustered(
    db.schema
      .createTable('check_results')
      .addColumn('series', 'integer', (c) => c.notNull())
      .addColumn('at', bigint, (c) => c.notNull())
      // 0 up, 1 degraded, 2 down.
      .addColumn('status', 'smallint', (c) => c.notNull())
      .addColumn('latency_ms', 'integer', (c) => c.notNull())
      // Null for a plain "ok", so that the common case costs nothing.
      .addColumn('message', 'text')
      .addPrimaryKeyConstraint('check_results_pk', ['series', 'at']),
  ).execute();

  // Aggregates by hour and by day: a 90-day uptime sums 90 daily rows per check, not 2,160.
  for (const [table, column] of [
    ['check_hourly', 'hour'],
    ['check_daily', 'day'],
  ] as const) {
    let aggregate = db.schema
      .createTable(table)
      .addColumn('series', 'integer', (c) => c.notNull())
      // Hours (or days) since the epoch.
      .addColumn(column, 'integer', (c) => c.notNull())
      .addColumn('runs', 'integer', (c) => c.notNull())
      .addColumn('down_runs', 'integer', (c) => c.notNull())
      .addColumn('degraded_runs', 'integer', (c) => c.notNull());
    // A latency histogram (see runner/latency-histogram.ts), one column per bucket, so that
    // concurrent upserts add with plain arithmetic.
    for (let i = 0; i < 12; i++) aggregate = aggregate.addColumn(`h${i}`, 'integer', (c) => c.notNull());
    await clustered(aggregate.addPrimaryKeyConstraint(`${table}_pk`, ['series', column])).execute();
  }

  await db.schema
    .createTable('check_state_changes')
    .addColumn('uid', 'text', (c) => c.primaryKey())
    .addColumn('organization_uid', 'text', (c) => c.notNull().references('organizations.uid').onDelete('cascade'))
    .addColumn('check_uid', 'text', (c) => c.references('checks.uid').onDelete('set null'))
    .addColumn('check_slug', 'text', (c) => c.notNull())
    .addColumn('from_state', 'text', (c) => c.notNull())
    .addColumn('to_state', 'text', (c) => c.notNull())
    .addColumn('message', 'text')
    .addColumn('incident_uid', 'text', (c) => c.references('incidents.uid').onDelete('set null'))
    .addColumn('at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('check_state_changes_incident').on('check_state_changes').columns(['incident_uid', 'uid']).execute();
  await db.schema.createIndex('check_state_changes_check').on('check_state_changes').columns(['check_uid', 'uid']).execute();

  // Who resolved an incident when it was not a person: the check came back up.
  await db.schema
    .alterTable('incidents')
    .addColumn('resolved_by_system', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
