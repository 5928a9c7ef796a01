import { Migrator, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrate, openDatabase, type Db } from '../../../daemon/db/connect.js';
import { MIGRATIONS } from '../../../daemon/db/migrations/index.js';
import {
  DAY_MS,
  dayStart,
  dropResultPartitionsBefore,
  ensureResultPartitions,
  listResultPartitions,
  PARTITION_DAYS_AHEAD,
  partitionName,
} from '../../../daemon/db/result-partitions.js';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from '../../support/databases.js';

const TODAY = dayStart(Date.now());
const NOON = 12 * 3_600_000;

/** Where a row of check_results is stored (its partition). */
async function partitionOf(db: Db, series: number, at: number): Promise<string | undefined> {
  const { rows } = await sql<{ name: string }>`
    select tableoid::regclass::text as name from check_results where series = ${series} and at = ${at}`.execute(db.kysely);
  return rows[0]?.name;
}

async function insertResults(db: Db, rows: Array<{ series: number; at: number }>): Promise<void> {
  for (let i = 0; i < rows.length; i += 1000) {
    await db.kysely
      .insertInto('check_results')
      .values(rows.slice(i, i + 1000).map(({ series, at }) => ({ series, at, status: 0, latency_ms: 12, message: null })))
      .execute();
  }
}

const count = async (db: Db) => Number((await sql<{ n: number }>`select count(*) as n from check_results`.execute(db.kysely)).rows[0].n);

describe.runIf(DATABASE_KINDS.includes('postgres'))('results partitioned by day on PostgreSQL', () => {
  let database: TestDatabase;
  let db: Db;
  const others: Db[] = [];
  beforeEach(async () => {
    database = await createTestDatabase('postgres');
    db = openDatabase(database.url);
    await migrate(db);
  });
  afterEach(async () => {
    for (const other of others.splice(0)) await other.close();
    await db.close();
    await database.drop();
  });

  it('has the partitions of today and the days ahead once migrated, and a default one', async () => {
    const names = (await listResultPartitions(db.kysely)).map((p) => p.name);
    for (let day = 0; day <= PARTITION_DAYS_AHEAD; day++) expect(names).toContain(partitionName(TODAY + day * DAY_MS));
    expect(names).toContain('check_results_default');
    const today = (await listResultPartitions(db.kysely)).find((p) => p.name === partitionName(TODAY))!;
    expect(today).toMatchObject({ from: TODAY, to: TODAY + DAY_MS });
    await insertResults(db, [{ series: 1, at: TODAY + NOON }]);
    expect(await partitionOf(db, 1, TODAY + NOON)).toBe(partitionName(TODAY));
  });

  it('creates partitions ahead idempotently', async () => {
    const later = TODAY + 30 * DAY_MS;
    const created = await ensureResultPartitions(db.kysely, later, 2);
    expect(created).toEqual([later, later + DAY_MS, later + 2 * DAY_MS].map(partitionName));
    expect(await ensureResultPartitions(db.kysely, later, 2)).toEqual([]);
    expect(await ensureResultPartitions(db.kysely, later + DAY_MS, 2)).toEqual([partitionName(later + 3 * DAY_MS)]);
  });

  it('lets daemons racing on one database create each partition once, without an error', async () => {
    for (let i = 0; i < 4; i++) {
      const other = openDatabase(database.url);
      others.push(other);
    }
    const from = TODAY + 60 * DAY_MS;
    for (let round = 0; round < 3; round++) {
      const at = from + round * 20 * DAY_MS;
      const created = await Promise.all([db, ...others].map((handle) => ensureResultPartitions(handle.kysely, at, 10)));
      const all = created.flat().sort();
      // Every day made by exactly one of them.
      expect(all).toEqual(Array.from({ length: 11 }, (_, day) => partitionName(at + day * DAY_MS)).sort());
    }
  });

  it('writes a result of a day without a partition to the default one, and moves it when that day gets its partition', async () => {
    const far = TODAY + 100 * DAY_MS + NOON;
    const old = TODAY - 400 * DAY_MS + NOON;
    await insertResults(db, [
      { series: 3, at: far },
      { series: 3, at: far + 1000 },
      { series: 3, at: old },
    ]);
    expect(await partitionOf(db, 3, far)).toBe('check_results_default');
    expect(await partitionOf(db, 3, old)).toBe('check_results_default');
    expect(await ensureResultPartitions(db.kysely, far, 0)).toEqual([partitionName(dayStart(far))]);
    expect(await partitionOf(db, 3, far)).toBe(partitionName(dayStart(far)));
    expect(await partitionOf(db, 3, far + 1000)).toBe(partitionName(dayStart(far)));
    expect(await partitionOf(db, 3, old)).toBe('check_results_default');
    expect(await count(db)).toBe(3);
  });

  it('drops whole old partitions and leaves the rows of the kept days untouched', async () => {
    const start = TODAY - 10 * DAY_MS;
    await ensureResultPartitions(db.kysely, start, 10);
    const rows: Array<{ series: number; at: number }> = [];
    for (let at = start; at < TODAY + DAY_MS; at += 600_000) for (const series of [1, 2]) rows.push({ series, at });
    await insertResults(db, rows);
    const before = await db.kysely
      .selectFrom('check_results')
      .selectAll()
      .where('at', '>=', TODAY - 3 * DAY_MS)
      .orderBy('series')
      .orderBy('at')
      .execute();
    // Retention ends at noon three days ago: that day is partly inside it and stays whole.
    const cutoff = TODAY - 3 * DAY_MS + NOON;
    // The days from 10 to 4 days ago go whole (their rows are not read to be counted); the default partition held none.
    const dropped = await dropResultPartitionsBefore(db.kysely, cutoff);
    expect(dropped.rows).toBe(0);
    expect(dropped.partitions.sort()).toEqual([10, 9, 8, 7, 6, 5, 4].map((day) => partitionName(TODAY - day * DAY_MS)));
    const names = (await listResultPartitions(db.kysely)).map((p) => p.name);
    for (let day = 10; day > 3; day--) expect(names).not.toContain(partitionName(TODAY - day * DAY_MS));
    for (let day = 3; day >= 0; day--) expect(names).toContain(partitionName(TODAY - day * DAY_MS));
    expect(names).toContain('check_results_default');
    const after = await db.kysely.selectFrom('check_results').selectAll().orderBy('series').orderBy('at').execute();
    expect(after).toEqual(before);
    // Again: nothing left to drop.
    expect(await dropResultPartitionsBefore(db.kysely, cutoff)).toEqual({ partitions: [], rows: 0 });
  });

  it('deletes old rows of the default partition and keeps its recent ones', async () => {
    const old = TODAY - 500 * DAY_MS;
    const recentFar = TODAY + 200 * DAY_MS;
    const rows = Array.from({ length: 12_000 }, (_, i) => ({ series: 5, at: old + i * 1000 }));
    await insertResults(db, [...rows, { series: 5, at: recentFar }]);
    expect(await dropResultPartitionsBefore(db.kysely, TODAY)).toEqual({ partitions: [], rows: 12_000 });
    expect(await count(db)).toBe(1);
    expect(await partitionOf(db, 5, recentFar)).toBe('check_results_default');
  });
});

describe.runIf(DATABASE_KINDS.includes('postgres'))('the migration to partitioned results on PostgreSQL', () => {
  let database: TestDatabase;
  let db: Db;
  afterEach(async () => {
    await db.close();
    await database.drop();
  });

  it('keeps the results already stored, each in the partition of its day', async () => {
    database = await createTestDatabase('postgres');
    db = openDatabase(database.url);
    const before = Object.keys(MIGRATIONS).filter((name) => name < '021');
    const migrator = new Migrator({ db: db.kysely, provider: { getMigrations: async () => MIGRATIONS } });
    const step = await migrator.migrateTo(before.at(-1)!);
    expect(step.error).toBeUndefined();
    const rows = Array.from({ length: 5000 }, (_, i) => ({ series: 1 + (i % 5), at: TODAY - 6 * DAY_MS + i * 100_000 }));
    await insertResults(db, rows);
    await migrate(db);
    const { rows: kind } = await sql<{ relkind: string }>`select relkind from pg_class where relname = 'check_results'`.execute(db.kysely);
    expect(kind[0].relkind).toBe('p');
    expect(await count(db)).toBe(rows.length);
    expect(await partitionOf(db, rows[0].series, rows[0].at)).toBe(partitionName(dayStart(rows[0].at)));
    expect(await partitionOf(db, rows.at(-1)!.series, rows.at(-1)!.at)).toBe(partitionName(dayStart(rows.at(-1)!.at)));
    const { rows: defaults } = await sql<{ n: number }>`select count(*) as n from check_results_default`.execute(db.kysely);
    expect(Number(defaults[0].n)).toBe(0);
    // The primary key still holds: a result written twice is stored once.
    await db.kysely
      .insertInto('check_results')
      .values({ series: rows[0].series, at: rows[0].at, status: 2, latency_ms: 1, message: 'again' })
      .onConflict((oc) => oc.columns(['series', 'at']).doNothing())
      .execute();
    expect(await count(db)).toBe(rows.length);
  });
});
