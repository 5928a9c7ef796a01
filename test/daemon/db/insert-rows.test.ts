import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openDatabase, type Db } from '../../../daemon/db/connect.js';
import { newId } from '../../../daemon/db/ids.js';
import { sql } from 'kysely';
import { arrayLiteral, insertRows } from '../../../daemon/db/insert-rows.js';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from '../../support/databases.js';

// insertRows writes many rows in one statement: on PostgreSQL as one array per column (unnest),
// on SQLite as a VALUES list. Both must store exactly what they are given.

/**
 * Text that an array literal must escape: quotes, backslashes, braces, commas, blanks, NULL spelled
 * out, JSON, and what JSON.stringify would write otherwise than an array literal (control
 * characters, a character beyond the BMP).
 */
const AWKWARD = [
  'plain',
  'say "hi"',
  'back\\slash',
  '{braces}',
  'a,b',
  ' padded ',
  'NULL',
  '',
  'ünïcødé ✓',
  '{"json":["a\\"b",1]}',
  'line\nbreak',
  'tab\tand\r\ncontrol \u0001\u001f',
  'astral 😀 "quoted" \\',
  '{"escaped":"\\n\\u0001\\"","nested":{"k":"\\\\"}}',
];

/** The texts of AWKWARD that JSON.stringify quotes as an array literal does (arrayLiteral writes a list of only these in one pass). */
const WRITTEN_ALIKE = AWKWARD.filter((text) => !/[\u0000-\u001f\ud800-\udfff]/.test(text));

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

describe.each(DATABASE_KINDS)('insertRows [%s]', (kind) => {
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

  const checkRow = (slug: string, description: string | null) => ({
    uid: newId(),
    organization_uid: orgUid,
    slug,
    name: `Check ${slug}`,
    type: 'http',
    enabled: 1 as const,
    interval_seconds: 60,
    target: 'http://127.0.0.1:9/',
    config: '{}',
    thresholds: '{}',
    labels: '{}',
    description,
    created_at: '2026-11-28T00:00:00.000Z',
    updated_at: '2026-11-28T00:00:00.000Z',
  });
  it('stores text that needs escaping, nulls, and 64-bit numbers exactly', async () => {
    const checks = AWKWARD.map((text, i) => checkRow(`awkward-${i}`, i % 3 === 0 ? null : text));
    await insertRows(db.kysely, 'checks', checks).execute();
    const states = checks.map((check, i) => ({
      check_uid: check.uid,
      next_run_at: 1_796_000_000_000 + i,
      lease_owner: null,
      state: 'pending' as const,
      state_since: '2026-11-28T00:00:00.000Z',
      fail_streak: i,
      success_streak: 0,
      last_at: i % 2 ? null : 2 ** 53 - 1 - i,
      last_status: null,
      last_latency_ms: null,
      last_message: AWKWARD[i],
      incident_uid: null,
      ping_token: `token-${i}`,
      last_ping_at: null,
      armed_at: 1_796_000_000_000,
    }));
    await insertRows(db.kysely, 'check_states', states).execute();

    const storedChecks = await db.kysely.selectFrom('checks').select(['uid', 'description']).where('slug', 'like', 'awkward-%').execute();
    expect(new Map(storedChecks.map((row) => [row.uid, row.description]))).toEqual(new Map(checks.map((row) => [row.uid, row.description])));
    const storedStates = await db.kysely
      .selectFrom('check_states')
      .select(['check_uid', 'next_run_at', 'fail_streak', 'last_at', 'last_message', 'lease_owner'])
      .where('ping_token', 'like', 'token-%')
      .orderBy('fail_streak')
      .execute();
    expect(storedStates.map((row) => ({ ...row, next_run_at: Number(row.next_run_at), last_at: row.last_at === null ? null : Number(row.last_at) }))).toEqual(
      states.map(({ check_uid, next_run_at, fail_streak, last_at, last_message, lease_owner }) => ({
        check_uid,
        next_run_at,
        fail_streak,
        last_at,
        last_message,
        lease_owner,
      })),
    );
  });

  it('stores import baselines, their definitions JSON text holding every awkward text, exactly', async () => {
    const checks = await db.kysely.selectFrom('checks').select('uid').where('slug', 'like', 'awkward-%').orderBy('uid').execute();
    expect(checks).toHaveLength(AWKWARD.length);
    const definition = (i: number) => JSON.stringify({ name: AWKWARD[i], config: { body: AWKWARD.at(-1 - i), n: i } });
    const rows = checks.map(({ uid }, i) => ({
      check_uid: uid,
      organization_uid: orgUid,
      source: 'configfile-monitor',
      definition: definition(i),
      imported_at: '2026-11-30T00:00:00.000Z',
    }));
    await insertRows(db.kysely, 'check_import_baselines', rows).execute();
    // Again, the definitions reversed, as a re-run records its baselines.
    await insertRows(
      db.kysely,
      'check_import_baselines',
      rows.map((row, i) => ({ ...row, definition: definition(rows.length - 1 - i) })),
    )
      .onConflict((oc) => oc.column('check_uid').doUpdateSet((eb) => ({ definition: eb.ref('excluded.definition') })))
      .execute();
    const stored = await db.kysely.selectFrom('check_import_baselines').select(['check_uid', 'definition']).execute();
    expect(new Map(stored.map((row) => [row.check_uid, row.definition]))).toEqual(
      new Map(rows.map((row, i) => [row.check_uid, definition(rows.length - 1 - i)])),
    );
  });

  it.runIf(kind === 'postgres')('writes array literals that PostgreSQL reads back as the lists given', async () => {
    const lists: (string | null)[][] = [WRITTEN_ALIKE, [...WRITTEN_ALIKE, null], AWKWARD, [null, ...AWKWARD, null], ['lone \ud800 surrogate'], []];
    expect(WRITTEN_ALIKE.length).toBeLessThan(AWKWARD.length);
    for (const list of lists) {
      const { rows } = await sql<{ list: (string | null)[] }>`select ${arrayLiteral(list)}::text[] as list`.execute(db.kysely);
      // A lone surrogate cannot be stored as UTF-8: it arrives as U+FFFD, as the driver sends it.
      expect(rows[0].list).toEqual(list.map((text) => text?.replace(LONE_SURROGATE, '\ufffd') ?? null));
    }
    const numbers = [0, -1, 2 ** 53 - 1, null, 1_796_000_000_000];
    const { rows } = await sql<{ list: (string | null)[] }>`select ${arrayLiteral(numbers)}::int8[]::text[] as list`.execute(db.kysely);
    expect(rows[0].list).toEqual(numbers.map((n) => (n === null ? null : String(n))));
    expect(() => arrayLiteral([true])).toThrow(/a boolean is neither a text nor a number/);
  });

  it('takes onConflict and returning as any insert does', async () => {
    const first = checkRow('conflicted', 'first');
    await insertRows(db.kysely, 'checks', [first]).execute();
    const again = [checkRow('conflicted', 'second'), checkRow('fresh', null)];
    const returned = await insertRows(db.kysely, 'checks', again)
      .onConflict((oc) => oc.columns(['organization_uid', 'slug']).doUpdateSet((eb) => ({ description: eb.ref('excluded.description') })))
      .returning(['uid', 'slug'])
      .execute();
    expect(new Map(returned.map((row) => [row.slug, row.uid]))).toEqual(
      new Map([
        ['conflicted', first.uid],
        ['fresh', again[1].uid],
      ]),
    );
    const stored = await db.kysely.selectFrom('checks').select('description').where('slug', '=', 'conflicted').executeTakeFirstOrThrow();
    expect(stored.description).toBe('second');
  });

  it('refuses rows with a column it has no type for, and writes nothing', async () => {
    const row = { ...checkRow('untyped', 'x'), colour: 'red' };
    expect(() => insertRows(db.kysely, 'checks', [row])).toThrow(/checks\.colour has no column type/);
    expect(await db.kysely.selectFrom('checks').select('uid').where('slug', '=', 'untyped').execute()).toEqual([]);
  });
});
