import { statSync } from 'node:fs';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../daemon/db/connect.js';
import { LARGE_TRANSACTION_ROWS, WalCheckpoints } from '../../../daemon/db/wal-checkpoints.js';
import { createTestDatabase, type TestDatabase } from '../../support/databases.js';

// SQLite only: PostgreSQL checkpoints in its own processes.

// Large enough that a large transaction's log is past SQLite's threshold of 1,000 pages (4 MiB).
const ROW_TEXT = 'x'.repeat(1000);

/** Inserts `rows` rows of 1,000 characters into `t` in one transaction, 500 to a statement. */
async function insertInOneTransaction(db: Db, rows: number): Promise<void> {
  await db.kysely.transaction().execute(async (trx) => {
    for (let at = 0; at < rows; at += 500) {
      const values = Array.from({ length: Math.min(500, rows - at) }, () => sql`(${ROW_TEXT})`);
      await sql`insert into t (x) values ${sql.join(values)}`.execute(trx);
    }
  });
}

const automaticCheckpointPages = async (db: Db) =>
  Number((await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(db.kysely)).rows[0].wal_autocheckpoint);

describe('SQLite checkpoints after a large transaction', () => {
  let database: TestDatabase | undefined;
  let db: Db | undefined;
  afterEach(async () => {
    await db?.close();
    await database?.drop();
    db = undefined;
    database = undefined;
  });

  async function open(): Promise<{ db: Db; file: string }> {
    database = await createTestDatabase('sqlite');
    db = openDatabase(database.url);
    await sql`create table t (x text)`.execute(db.kysely);
    const file = database.url.slice('sqlite:'.length);
    // Start from a database file that holds everything written so far.
    const other = new SQLite(file);
    other.pragma('wal_checkpoint(TRUNCATE)');
    other.close();
    return { db, file };
  }

  it('commits without copying the log into the file, and copies it on a thread of its own', async () => {
    const { db, file } = await open();
    const before = statSync(file).size;
    await insertInOneTransaction(db, LARGE_TRANSACTION_ROWS + 1000);
    // The commit wrote the log only: the database file is as it was.
    expect(statSync(file).size).toBe(before);
    await db.walCheckpoints!.idle();
    expect(db.walCheckpoints!.threadRuns).toBe(1);
    // The thread copied the rows into the file, and the automatic checkpoint is on again.
    expect(statSync(file).size).toBeGreaterThan(before + (LARGE_TRANSACTION_ROWS + 1000) * ROW_TEXT.length);
    expect(await automaticCheckpointPages(db)).toBe(1000);
    const { rows } = await sql<{ n: number }>`select count(*) as n from t`.execute(db.kysely);
    expect(rows[0].n).toBe(LARGE_TRANSACTION_ROWS + 1000);
  });

  it('leaves a small transaction to the automatic checkpoint, with no thread', async () => {
    const { db } = await open();
    await insertInOneTransaction(db, 100);
    await db.walCheckpoints!.idle();
    expect(db.walCheckpoints!.threadRuns).toBe(0);
    expect(await automaticCheckpointPages(db)).toBe(1000);
  });

  it('takes the large commits made while a thread copies in its next run', async () => {
    const { db, file } = await open();
    await insertInOneTransaction(db, LARGE_TRANSACTION_ROWS);
    await insertInOneTransaction(db, LARGE_TRANSACTION_ROWS);
    await db.walCheckpoints!.idle();
    expect(db.walCheckpoints!.threadRuns).toBe(2);
    expect(statSync(file).size).toBeGreaterThan(2 * LARGE_TRANSACTION_ROWS * ROW_TEXT.length);
  });

  it('turns the automatic checkpoint on again when the thread cannot run', async () => {
    database = await createTestDatabase('sqlite');
    const file = database.url.slice('sqlite:'.length);
    const sqlite = new SQLite(file);
    try {
      sqlite.pragma('journal_mode = WAL');
      const checkpoints = new WalCheckpoints(sqlite, file, new URL('file:///nonexistent/wal-checkpoint-worker.js'));
      checkpoints.beforeLargeCommit();
      expect(sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
      checkpoints.afterLargeCommit();
      await checkpoints.idle();
      expect(checkpoints.threadRuns).toBe(0);
      expect(sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    } finally {
      sqlite.close();
    }
  });
});
