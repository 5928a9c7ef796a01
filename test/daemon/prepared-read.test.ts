import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../daemon/db/connect.js';
import type { Database } from '../../daemon/db/schema.js';
import { compileRead, preparedRead } from '../../daemon/db/prepared-read.js';
import { postgresReader } from '../../daemon/db/prepared-reader.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../support/daemon.js';

const MEMBER_WITH_ROLE = preparedRead((db, slug: string, email: string) =>
  db
    .selectFrom('members')
    .innerJoin('organizations', 'organizations.uid', 'members.organization_uid')
    .innerJoin('users', 'users.uid', 'members.user_uid')
    .select(['users.email', 'members.role'])
    .where('members.role', '=', 'owner')
    .where('users.email', '=', email)
    .where('organizations.slug', '=', slug),
);

const ORG_BY_SLUG = preparedRead((db, slug: string) => db.selectFrom('organizations').select(['slug', 'name']).where('slug', '=', slug));

describe.each(DATABASE_KINDS)('prepared reads [%s]', (kind) => {
  let daemon: TestDaemon;
  let db: Db;
  beforeAll(async () => {
    daemon = await startTestDaemon(kind);
    db = daemon.deps.db;
  });
  afterAll(() => daemon.stop());

  it("bind each argument where the query uses it and keep the query's own values", async () => {
    expect(await db.readOne(MEMBER_WITH_ROLE, 'default', 'admin@svc.local')).toEqual({ email: 'admin@svc.local', role: 'owner' });
    expect(await db.readOne(MEMBER_WITH_ROLE, 'admin@svc.local', 'default')).toBeUndefined();
    expect(await db.readOne(MEMBER_WITH_ROLE, 'nowhere', 'admin@svc.local')).toBeUndefined();
  });

  it('read what is committed, never what a transaction in progress wrote', async () => {
    await db.kysely.transaction().execute(async (trx) => {
      await trx.updateTable('organizations').set({ name: 'Renamed, not yet committed' }).where('slug', '=', 'default').execute();
      expect(await db.readOne(ORG_BY_SLUG, 'default')).toMatchObject({ name: expect.not.stringMatching(/not yet committed/) });
    });
    expect(await db.readOne(ORG_BY_SLUG, 'default')).toEqual({ slug: 'default', name: 'Renamed, not yet committed' });
  });
});

describe('compiling a prepared read', () => {
  let daemon: TestDaemon;
  beforeAll(async () => {
    daemon = await startTestDaemon('sqlite');
  });
  afterAll(() => daemon.stop());

  it('refuses a build that changes an argument or writes it into the SQL text', () => {
    const changed = preparedRead((db, slug: string) => db.selectFrom('organizations').selectAll().where('slug', '=', slug.toUpperCase()));
    expect(() => compileRead(daemon.deps.db.kysely, changed)).toThrow(/must pass argument 0 to the query as a value/);
    const inlined = preparedRead((db, slug: string) =>
      db
        .selectFrom('organizations')
        .selectAll()
        .where(sql.raw(`slug = '${slug}'`) as never),
    );
    expect(() => compileRead(daemon.deps.db.kysely, inlined)).toThrow(/must pass argument/);
  });
});

describe.skipIf(!DATABASE_KINDS.includes('postgres'))('prepared reads on PostgreSQL', () => {
  let daemon: TestDaemon;
  beforeAll(async () => {
    daemon = await startTestDaemon('postgres');
  });
  afterAll(() => daemon.stop());

  // One connection, so the statements it holds can be listed on it afterwards.
  async function statementsAfterRead(named: boolean): Promise<string[]> {
    const pool = new pg.Pool({ connectionString: daemon.database.url, max: 1 });
    // Dropping the database at the end ends this connection too, after its pool has let go.
    pool.on('error', () => {});
    const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    try {
      const { readOne } = postgresReader(pool, kysely, { named });
      expect(await readOne(ORG_BY_SLUG, 'default')).toEqual({ slug: 'default', name: expect.any(String) });
      expect(await readOne(ORG_BY_SLUG, 'default')).toBeDefined();
      return (await pool.query<{ name: string }>('select name from pg_prepared_statements')).rows.map((row) => row.name);
    } finally {
      await kysely.destroy();
    }
  }

  it('are named statements of the connection, unless turned off for a pooler that cannot keep them', async () => {
    expect(await statementsAfterRead(true)).toEqual(['svc_read_1']);
    expect(await statementsAfterRead(false)).toEqual([]);
  });
});
