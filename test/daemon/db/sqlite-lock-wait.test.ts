import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../daemon/db/connect.js';
import { createTestDatabase, type TestDatabase } from '../../support/databases.js';

/** How long the other process holds the write lock. */
const HELD_MS = 1500;

// SQLite only: PostgreSQL has no single write lock for a process to wait for.
describe('a SQLite transaction waiting for another process on the same file', () => {
  let database: TestDatabase;
  let db: Db;
  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    db = openDatabase(database.url);
    await sql`create table t (x integer)`.execute(db.kysely);
  });
  afterAll(async () => {
    await db?.close();
    await database?.drop();
  });

  it('keeps the event loop turning while it waits, and writes once the other process lets go', async () => {
    const path = database.url.slice('sqlite:'.length);
    // Another process (a second daemon on the file) takes the write lock and holds it.
    const holder = spawn(
      process.execPath,
      [
        '-e',
        `const db = new (require('better-sqlite3'))(${JSON.stringify(path)});
         db.exec('begin immediate'); db.exec('insert into t values (1)');
         process.stdout.write('locked\\n');
         setTimeout(() => { db.exec('commit'); db.close(); }, ${HELD_MS});`,
      ],
      { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const exited = once(holder, 'exit');
    await once(holder.stdout!, 'data');

    let last = performance.now();
    let longestGap = 0;
    const ticker = setInterval(() => {
      const now = performance.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
    }, 5);
    const started = performance.now();
    await db.kysely.transaction().execute((trx) => sql`insert into t values (2)`.execute(trx));
    const waited = performance.now() - started;
    clearInterval(ticker);
    longestGap = Math.max(longestGap, performance.now() - last);
    await exited;

    // It did wait for the lock, most of the time the other process held it...
    expect(waited).toBeGreaterThan(HELD_MS / 2);
    // ...without stopping the loop for it: SQLite's own busy wait blocks the thread all along.
    expect(longestGap).toBeLessThan(HELD_MS / 2);
    const { rows } = await sql<{ n: number }>`select count(*) as n from t`.execute(db.kysely);
    expect(Number(rows[0].n)).toBe(2);
  });
});
