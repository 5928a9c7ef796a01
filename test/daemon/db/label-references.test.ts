import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCheck, deleteCheck } from '../../../daemon/checks/check-store.js';
import { migrate, openDatabase, type Db } from '../../../daemon/db/connect.js';
import { newId } from '../../../daemon/db/ids.js';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from '../../support/databases.js';
import { validateCheck } from '../../../checks/index.js';

// A label row refers to its check: on SQLite by a foreign key, on PostgreSQL by the
// statement-level triggers of migration 024. Both must mean the same: no label of a check that
// does not exist, and a check's labels go with it.

describe.each(DATABASE_KINDS)("a check's labels [%s]", (kind) => {
  let database: TestDatabase;
  let db: Db;
  let orgUid: string;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    db = openDatabase(database.url);
    await migrate(db);
    orgUid = newId();
    await db.kysely
      .insertInto('organizations')
      .values({ uid: orgUid, slug: 'acme', name: 'Acme', member_limit: null, created_at: new Date().toISOString() })
      .execute();
  });
  afterAll(async () => {
    await db.close();
    await database.drop();
  });

  const labelled = (slug: string) => {
    const result = validateCheck({ slug, name: slug, type: 'http', target: 'http://127.0.0.1:9/', labels: { env: 'prod', team: slug } });
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    return createCheck(db.kysely, orgUid, result.check, new Date());
  };
  const labelsOf = async (checkUid: string) =>
    (await db.kysely.selectFrom('check_labels').select('key').where('check_uid', '=', checkUid).orderBy('key').execute()).map((row) => row.key);

  it('refuses a statement naming a check that does not exist, and writes none of its rows', async () => {
    const check = await labelled('refused');
    const insert = db.kysely
      .insertInto('check_labels')
      .values([
        { check_uid: check.uid, organization_uid: orgUid, key: 'extra', value: 'yes' },
        { check_uid: 'no-such-check', organization_uid: orgUid, key: 'extra', value: 'yes' },
      ])
      .execute();
    await expect(insert).rejects.toThrow(/foreign key|check_labels\.check_uid names a check that does not exist/i);
    expect(await labelsOf(check.uid)).toEqual(['env', 'team']);
  });

  it('deletes the labels of a deleted check, and of every check of a deleted organization', async () => {
    const gone = await labelled('gone');
    const kept = await labelled('kept');
    expect(await deleteCheck(db.kysely, orgUid, 'gone')).toBe(true);
    expect(await labelsOf(gone.uid)).toEqual([]);
    expect(await labelsOf(kept.uid)).toEqual(['env', 'team']);
    await db.kysely.deleteFrom('organizations').where('uid', '=', orgUid).execute();
    const left = await db.kysely.selectFrom('check_labels').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
    expect(Number(left.n)).toBe(0);
  });
});

describe.runIf(DATABASE_KINDS.includes('postgres'))("a check's labels on PostgreSQL, written and deleted at once", () => {
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

  it('makes a delete of the check wait for a transaction writing its labels, then takes them with it', async () => {
    const orgUid = newId();
    await writer.kysely
      .insertInto('organizations')
      .values({ uid: orgUid, slug: 'acme', name: 'Acme', member_limit: null, created_at: new Date().toISOString() })
      .execute();
    const result = validateCheck({ slug: 'raced', name: 'raced', type: 'http', target: 'http://127.0.0.1:9/' });
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    const check = await createCheck(writer.kysely, orgUid, result.check, new Date());

    let deleted: Promise<boolean> | undefined;
    let deleteSettled = false;
    await writer.kysely.transaction().execute(async (trx) => {
      // Labels written without touching the check row, as an import's baselines are: the
      // reference check's lock is what holds the delete back.
      await trx.insertInto('check_labels').values({ check_uid: check.uid, organization_uid: orgUid, key: 'env', value: 'prod' }).execute();
      deleted = deleteCheck(deleter.kysely, orgUid, 'raced').finally(() => {
        deleteSettled = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(deleteSettled).toBe(false);
    });
    expect(await deleted).toBe(true);
    const left = await writer.kysely.selectFrom('check_labels').select('key').where('check_uid', '=', check.uid).execute();
    expect(left).toEqual([]);
  });
});
