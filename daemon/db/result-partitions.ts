import { sql, type Kysely } from 'kysely';
import { inTransaction } from './in-transaction.js';

/**
 * PostgreSQL keeps check results in one partition per UTC day (`check_results_YYYYMMDD`, a range
 * of `at` in epoch milliseconds) and a default partition for a result of a day that has none.
 * Partitions are created ahead of time, and retention drops whole old ones: no row-by-row
 * delete, no bloat, and the only lock taken on the parent table is brief.
 */

export const DAY_MS = 86_400_000;
/** Days created ahead of today, so a runner that is down for a while still finds its partitions. */
export const PARTITION_DAYS_AHEAD = 7;
/** Partition changes of every daemon on the database take this advisory lock, one at a time. */
const PARTITION_LOCK = 0x5e_c0_21;
/** Creating or dropping a partition waits at most this long for its lock, so queries never queue behind it for long. */
const LOCK_TIMEOUT = '2s';

/** One partition of check_results and its range of `at` (the default one has none). */
export interface ResultPartition {
  name: string;
  from: number | null;
  to: number | null;
}

/** The partition of the day starting at `dayStartMs`. */
export function partitionName(dayStartMs: number): string {
  return `check_results_${new Date(dayStartMs).toISOString().slice(0, 10).replaceAll('-', '')}`;
}

export const dayStart = (ms: number): number => Math.floor(ms / DAY_MS) * DAY_MS;

/** The partitions of check_results, oldest first, the default one last. */
export async function listResultPartitions(db: Kysely<any>): Promise<ResultPartition[]> {
  const { rows } = await sql<{ name: string; bound: string }>`
    select c.relname as name, pg_get_expr(c.relpartbound, c.oid) as bound
    from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = 'check_results'::regclass`.execute(db);
  return rows
    .map(({ name, bound }) => {
      const range = /FROM \('?(-?\d+)'?\) TO \('?(-?\d+)'?\)/.exec(bound);
      return { name, from: range ? Number(range[1]) : null, to: range ? Number(range[2]) : null };
    })
    .sort((a, b) => (a.from ?? Number.POSITIVE_INFINITY) - (b.from ?? Number.POSITIVE_INFINITY));
}

/**
 * Creates the partition of one day, unless it exists. Results of that day already written to the
 * default partition move into it. Runs in the caller's transaction, which must hold the
 * partition lock (see `withPartitionLock`) or otherwise be alone (a migration).
 */
export async function createDayPartition(trx: Kysely<any>, dayStartMs: number): Promise<boolean> {
  const name = partitionName(dayStartMs);
  const from = dayStartMs;
  const to = dayStartMs + DAY_MS;
  const { rows: existing } = await sql`select 1 from pg_class where relname = ${name} and relkind in ('r', 'p')`.execute(trx);
  if (existing.length > 0) return false;
  const table = sql.table(name);
  const { rows: strays } = await sql`select 1 from check_results_default where at >= ${from} and at < ${to} limit 1`.execute(trx);
  if (strays.length === 0) {
    await sql`create table ${table} partition of check_results for values from (${sql.lit(from)}) to (${sql.lit(to)})`.execute(trx);
    return true;
  }
  // A day written before its partition existed: its rows leave the default partition for the new one.
  await sql`create table ${table} (like check_results including all)`.execute(trx);
  await sql`insert into ${table} select * from check_results_default where at >= ${from} and at < ${to}`.execute(trx);
  await sql`delete from check_results_default where at >= ${from} and at < ${to}`.execute(trx);
  await sql`alter table check_results attach partition ${table} for values from (${sql.lit(from)}) to (${sql.lit(to)})`.execute(trx);
  return true;
}

/** Runs `fn` in a transaction holding the partition lock, waiting at most LOCK_TIMEOUT for any table lock. */
export async function withPartitionLock<T>(db: Kysely<any>, fn: (trx: Kysely<any>) => Promise<T>): Promise<T> {
  return inTransaction(db, async (trx) => {
    await sql`select pg_advisory_xact_lock(${PARTITION_LOCK})`.execute(trx);
    await sql`set local lock_timeout = ${sql.lit(LOCK_TIMEOUT)}`.execute(trx);
    return fn(trx);
  });
}

/**
 * Makes sure the partitions of today and the next `daysAhead` days exist. Idempotent, and safe
 * with several daemons on one database (they take turns on the partition lock). Answers the
 * names created.
 */
export async function ensureResultPartitions(db: Kysely<any>, nowMs: number, daysAhead = PARTITION_DAYS_AHEAD): Promise<string[]> {
  const existing = new Set((await listResultPartitions(db)).map((p) => p.name));
  const created: string[] = [];
  for (let day = dayStart(nowMs); day <= dayStart(nowMs) + daysAhead * DAY_MS; day += DAY_MS) {
    if (existing.has(partitionName(day))) continue;
    if (await withPartitionLock(db, (trx) => createDayPartition(trx, day))) created.push(partitionName(day));
  }
  return created;
}

/** Rows deleted from the default partition per statement. */
const DEFAULT_BATCH = 5000;

/** What retention removed on PostgreSQL: day partitions dropped whole, and rows deleted from the default partition. */
export interface DroppedResults {
  /** The day partitions dropped. Their rows are not counted: counting a day would read all of it, only to throw it away. */
  partitions: string[];
  /** Rows deleted from the default partition. */
  rows: number;
}

/**
 * Retention: drops every day partition wholly older than `beforeMs` (a day partly inside the
 * retention stays until all of it is past), and deletes old rows of the default partition a
 * batch at a time.
 */
export async function dropResultPartitionsBefore(db: Kysely<any>, beforeMs: number): Promise<DroppedResults> {
  const partitions: string[] = [];
  for (const partition of await listResultPartitions(db)) {
    if (partition.to === null || partition.to > beforeMs) continue;
    const dropped = await withPartitionLock(db, async (trx) => {
      // Another daemon may have dropped it while this one waited for the lock.
      const { rows: present } = await sql`select 1 from pg_class where relname = ${partition.name}`.execute(trx);
      if (present.length === 0) return false;
      await sql`drop table if exists ${sql.table(partition.name)}`.execute(trx);
      return true;
    });
    if (dropped) partitions.push(partition.name);
  }
  let rows = 0;
  for (;;) {
    const gone = await sql`
      delete from check_results_default where (series, at) in
        (select series, at from check_results_default where at < ${beforeMs} limit ${DEFAULT_BATCH})`.execute(db);
    rows += Number(gone.numAffectedRows ?? 0);
    if (Number(gone.numAffectedRows ?? 0) < DEFAULT_BATCH) break;
  }
  return { partitions, rows };
}
