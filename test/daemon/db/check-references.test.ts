import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateCheck } from '../../../checks/index.js';
import { createCheck, deleteCheck } from '../../../daemon/checks/check-store.js';
import { migrate, openDatabase, type Db } from '../../../daemon/db/connect.js';
import { newId } from '../../../daemon/db/ids.js';
import type { Executor } from '../../../daemon/db/executor.js';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from '../../support/databases.js';
import { until } from '../../support/runner.js';

// Label rows and import baselines refer to their check: on SQLite by foreign keys, on PostgreSQL
// by the statement-level triggers of migration 024. Both must mean the same: no row of a check
// that does not exist, and a check's rows go with it.

type Child = 'check_labels' | 'check_import_baselines';
const CHILDREN: Child[] = ['check_labels', 'check_import_baselines'];

/** Writes one row of `child` for each check uid given, in one statement. */
function insertChild(db: Executor, child: Child, orgUid: string, checkUids: string[]) {
  if (child === 'check_labels') {
    return db
      .insertInto('check_labels')
      .values(checkUids.map((uid) => ({ check_uid: uid, organization_uid: orgUid, key: 'extra', value: 'yes' })))
      .execute();
  }
  return db
    .insertInto('check_import_baselines')
    .values(
      checkUids.map((uid) => ({
        check_uid: uid,
        organization_uid: orgUid,
        source: 'configfile-monitor',
        definition: '{}',
        imported_at: '2026-11-28T00:00:00.000Z',
      })),
    )
    .execute();
}

const rowsOf = async (db: Executor, child: Child, checkUid: string) =>
  Number((await db.selectFrom(child).select(sql<number>`count(*)`.as('n')).where('check_uid', '=', checkUid).executeTakeFirstOrThrow()).n);

async function newOrganization(db: Executor): Promise<string> {
  const uid = newId();
  await db
    .insertInto('organizations')
    .values({ uid, slug: `org-${uid}`, name: 'Acme', member_limit: null, created_at: new Date().toISOString() })
    .execute();
  return uid;
}

function newCheck(db: Executor, orgUid: string, slug: string) {
  const result = validateCheck({ slug, name: slug, type: 'http', target: 'http://127.0.0.1:9/', labels: { env: 'prod', team: slug } });
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return createCheck(db, orgUid, result.check, new Date());
}

describe.each(DATABASE_KINDS)("a check's labels and baselines [%s]", (kind) => {
  let database: TestDatabase;
  let db: Db;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    db = openDatabase(database.url);
    await migrate(db);
  });
  afterAll(async () => {
    await db.close();
    await database.drop();
  });

  it.each(CHILDREN)('refuses a statement writing %s of a check that does not exist, and writes none of its rows', async (child) => {
    const orgUid = await newOrganization(db.kysely);
    const check = await newCheck(db.kysely, orgUid, 'refused');
    await expect(insertChild(db.kysely, child, orgUid, [check.uid, 'no-such-check'])).rejects.toThrow(/foreign key|names a check that does not exist/i);
    expect(await rowsOf(db.kysely, child, check.uid)).toBe(child === 'check_labels' ? 2 : 0);
  });

  it.each(CHILDREN)('deletes the %s of a deleted check, and of every check of a deleted organization', async (child) => {
    const orgUid = await newOrganization(db.kysely);
    const gone = await newCheck(db.kysely, orgUid, 'gone');
    const kept = await newCheck(db.kysely, orgUid, 'kept');
    if (child === 'check_import_baselines') await insertChild(db.kysely, child, orgUid, [gone.uid, kept.uid]);
    expect(await deleteCheck(db.kysely, orgUid, 'gone')).toBe(true);
    expect(await rowsOf(db.kysely, child, gone.uid)).toBe(0);
    expect(await rowsOf(db.kysely, child, kept.uid)).toBeGreaterThan(0);
    await db.kysely.deleteFrom('organizations').where('uid', '=', orgUid).execute();
    const left = await db.kysely.selectFrom(child).select(sql<number>`count(*)`.as('n')).where('organization_uid', '=', orgUid).executeTakeFirstOrThrow();
    expect(Number(left.n)).toBe(0);
  });
});

describe.runIf(DATABASE_KINDS.includes('postgres'))("a check's labels and baselines on PostgreSQL, written and deleted at once", () => {
  let database: TestDatabase;
  let writer: Db;
  let deleter: Db;

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    writer = openDatabase(database.url);
    deleter = openDatabase(database.url);
    await migrate(writer);
  });
  afterAll(async () => {
    await writer.close();
    await deleter.close();
    await database.drop();
  });

  it.each(CHILDREN)('makes a delete of the check wait for a transaction writing its %s, then takes them with it', async (child) => {
    const orgUid = await newOrganization(writer.kysely);
    const check = await newCheck(writer.kysely, orgUid, 'raced');
    let deleted: Promise<boolean> | undefined;
    let deleteSettled = false;
    await writer.kysely.transaction().execute(async (trx) => {
      // Rows written without touching the check row, as a re-run's baselines of unchanged checks
      // are: the reference check's lock is what holds the delete back.
      await insertChild(trx, child, orgUid, [check.uid]);
      deleted = deleteCheck(deleter.kysely, orgUid, 'raced').finally(() => {
        deleteSettled = true;
      });
      // The server says the delete waits for a lock (the check's, which this transaction holds).
      await until(
        async () =>
          (
            await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`.execute(
              writer.kysely,
            )
          ).rows[0].n > 0,
      );
      expect(deleteSettled).toBe(false);
    });
    expect(await deleted).toBe(true);
    expect(await rowsOf(writer.kysely, child, check.uid)).toBe(0);
  });
});
