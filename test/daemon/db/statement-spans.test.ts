import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../daemon/db/connect.js';
import { LONGEST_SPAN_MS } from '../../../daemon/db/statement-spans.js';
import { createTestDatabase, type TestDatabase } from '../../support/databases.js';

/** How long the transaction below keeps writing. */
const WRITING_MS = 1000;

/** Inserts one row at a time inside a transaction of `db` for WRITING_MS; `meanwhile` runs after the first. */
async function writeFor(db: Db, meanwhile: () => void = () => {}): Promise<number> {
  return db.kysely.transaction().execute(async (trx) => {
    const started = performance.now();
    let rows = 0;
    while (performance.now() - started < WRITING_MS) {
      await sql`insert into t values (${rows})`.execute(trx);
      if (rows++ === 0) meanwhile();
    }
    return rows;
  });
}

// SQLite only: its statements answer synchronously, where PostgreSQL's wait for the network.
describe('SQLite statements and the event loop', () => {
  let database: TestDatabase;
  let db: Db;
  let other: Db;
  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    db = openDatabase(database.url);
    other = openDatabase(database.url);
    await sql`create table t (x integer)`.execute(db.kysely);
  });
  afterAll(async () => {
    await other?.close();
    await db?.close();
    await database?.drop();
  });

  it('gives the loop a turn during a long chain of statements in one transaction', async () => {
    let last = performance.now();
    let longestGap = 0;
    let ticks = 0;
    const ticker = setInterval(() => {
      const now = performance.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
      ticks++;
    }, 1);
    const rows = await writeFor(db);
    clearInterval(ticker);
    longestGap = Math.max(longestGap, performance.now() - last);
    expect(rows).toBeGreaterThan(100);
    // Without turns the timer would not fire once while the transaction writes, and the gap would be all of it.
    expect(ticks).toBeGreaterThan(3);
    expect(longestGap).toBeLessThan(WRITING_MS / 2);
    expect(LONGEST_SPAN_MS).toBeLessThan(WRITING_MS / 4);
  });

  it("lets a second connection of the process wait for the lock without holding the thread, so the first one's transaction ends", async () => {
    const before = Number((await sql<{ n: number }>`select count(*) as n from t`.execute(db.kysely)).rows[0].n);
    let outside: Promise<unknown> | undefined;
    let committed = false;
    let outsideDoneFirst = false;
    const rows = await writeFor(db, () => {
      // The other connection writes outside a transaction while this one holds the write lock between statements.
      outside = sql`insert into t values (-1)`.execute(other.kysely).then(() => {
        outsideDoneFirst = !committed;
      });
    });
    committed = true;
    await outside;
    expect(outsideDoneFirst).toBe(false);
    const after = Number((await sql<{ n: number }>`select count(*) as n from t`.execute(db.kysely)).rows[0].n);
    expect(after).toBe(before + rows + 1);
  });
});
