import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openDatabase, type Db } from '../../../daemon/db/connect.js';
import { newId } from '../../../daemon/db/ids.js';
import { claimDue, dueRunsQuery, releaseClaims } from '../../../daemon/runner/claim.js';
import { ensureStates } from '../../../daemon/runner/check-states.js';
import { nextSlot, slotOffsetMs } from '../../../daemon/runner/schedule.js';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from '../../support/databases.js';

const CHECKS = 400;
const T0 = Date.parse('2026-03-01T10:00:00Z');

/**
 * The id `newId(T0 + i)` might give, with its 16 random characters drawn from a generator seeded
 * with `i` instead: the same ids on every run, so the spread below is a fact, not a chance.
 */
function fixedId(i: number): string {
  const alphabet = '0123456789abcdefghjkmnpqrstvwxyz';
  let state = (i + 1) * 0x9e3779b9;
  let tail = '';
  for (let k = 0; k < 16; k++) {
    state = Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + 0x6d2b79f5;
    tail += alphabet[(state >>> 0) % 32];
  }
  return newId(T0 + i).slice(0, 10) + tail;
}

describe('schedule slots', () => {
  it('spreads checks of one interval over it, and keeps each on a fixed grid', () => {
    const offsets = Array.from({ length: 1000 }, (_, i) => Math.floor(slotOffsetMs(fixedId(i), 60) / 1000));
    const perSecond = new Array(60).fill(0);
    for (const second of offsets) perSecond[second]++;
    // 1000 checks over 60 seconds: about 17 a second, none empty and none crowded.
    expect(Math.min(...perSecond)).toBeGreaterThan(3);
    expect(Math.max(...perSecond)).toBeLessThan(40);
    const uid = fixedId(0);
    const first = nextSlot(uid, 60, T0);
    expect(first).toBeGreaterThan(T0);
    expect(first - T0).toBeLessThanOrEqual(60_000);
    expect(nextSlot(uid, 60, first)).toBe(first + 60_000);
    expect(nextSlot(uid, 60, first - 1)).toBe(first);
  });
});

describe.each(DATABASE_KINDS)('claims through the database [%s]', (kind) => {
  let database: TestDatabase;
  let a: Db;
  let b: Db;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    a = openDatabase(database.url);
    await migrate(a);
    // PostgreSQL: a second connection pool, as a second replica has. SQLite: the single writer
    // (two connections in one process would block each other's thread), claiming for two names.
    b = kind === 'postgres' ? openDatabase(database.url) : a;
    const at = new Date(T0).toISOString();
    await a.kysely
      .insertInto('organizations')
      .values({ uid: newId(T0), slug: 'acme', name: 'Acme', member_limit: null, created_at: at })
      .execute();
    const org = await a.kysely.selectFrom('organizations').select('uid').executeTakeFirstOrThrow();
    const rows = Array.from({ length: CHECKS }, (_, i) => ({
      uid: newId(T0 + i),
      organization_uid: org.uid,
      slug: `c${i}`,
      name: `C${i}`,
      type: 'tcp',
      enabled: 1 as const,
      interval_seconds: 60,
      target: '127.0.0.1:9',
      config: '{}',
      thresholds: JSON.stringify({ timeoutMs: 1000, failuresBeforeDown: 1, successesBeforeUp: 1 }),
      labels: '{}',
      description: null,
      created_at: at,
      updated_at: at,
    }));
    for (let i = 0; i < rows.length; i += 100)
      await a.kysely
        .insertInto('checks')
        .values(rows.slice(i, i + 100))
        .execute();
    expect(await ensureStates(a.kysely, T0)).toBe(CHECKS);
    // Made once: a second pass (another replica) finds nothing to make.
    expect(await ensureStates(b.kysely, T0)).toBe(0);
  });
  afterAll(async () => {
    await a?.close();
    if (b !== a) await b?.close();
    await database?.drop();
  });

  it.runIf(kind === 'sqlite')('reads the due states through their index and each check by its key, never scanning the checks', async () => {
    // With statistics of the checks and none of their states (what upsertChecks leaves after a bulk
    // import), SQLite planned a plain join by scanning every check and sorting them, on every claim.
    await sql`analyze checks`.execute(a.kysely);
    for (const skipOrganizations of [[], ['some-org']]) {
      const claim = dueRunsQuery(a.kysely, kind, { horizonMs: T0, limit: 500, skipOrganizations }).compile();
      const plan = await a.kysely.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${claim.sql}`, [...claim.parameters]));
      const steps = plan.rows.map((row) => row.detail);
      expect(steps).toEqual([expect.stringMatching(/^SEARCH s USING INDEX check_states_due/), expect.stringMatching(/^SEARCH c USING .*INDEX .*\(uid=\?\)/)]);
    }
  });

  it('hands each due run to exactly one of two replicas claiming at once', async () => {
    const now = T0 + 60_000;
    const claimed: Record<string, number[]> = { a: [], b: [] };
    const drain = async (db: Db, name: 'a' | 'b') => {
      for (;;) {
        const runs = await claimDue(db, name, { nowMs: now, horizonMs: now, limit: 25, leaseMs: 5000 });
        if (runs.length === 0) return;
        claimed[name].push(...runs.map((run) => run.series));
      }
    };
    await Promise.all([drain(a, 'a'), drain(b, 'b'), drain(a, 'a'), drain(b, 'b')]);
    const all = [...claimed.a, ...claimed.b];
    expect(all).toHaveLength(CHECKS);
    expect(new Set(all).size).toBe(CHECKS);
    if (kind === 'postgres') {
      // Both replicas got work: they claimed side by side rather than one after the other.
      expect(claimed.a.length).toBeGreaterThan(0);
      expect(claimed.b.length).toBeGreaterThan(0);
    }
    const owners = await a.kysely.selectFrom('check_states').select('lease_owner').distinct().execute();
    expect(owners.map((o) => o.lease_owner).sort()).toEqual(['a', 'b'].filter((name) => claimed[name].length > 0));
  });

  it("takes a dead replica's runs over once their leases end, and not before", async () => {
    // Every run was claimed at T0+60 s with a 1 s timeout and a 5 s lease.
    const leaseEnd = T0 + 60_000 + 1000 + 5000;
    expect(await claimDue(b, 'b', { nowMs: leaseEnd - 1, horizonMs: leaseEnd - 1, limit: 1000, leaseMs: 5000 })).toEqual([]);
    const taken = await claimDue(b, 'b', { nowMs: leaseEnd, horizonMs: leaseEnd, limit: 1000, leaseMs: 5000 });
    expect(taken).toHaveLength(CHECKS);
    expect(new Set(taken.map((run) => run.dueAt))).toEqual(new Set([leaseEnd]));
  });

  it('gives unstarted claims back on drain, due when they were due, for any runner', async () => {
    const now = T0 + 120_000;
    const runs = await claimDue(a, 'a', { nowMs: now, horizonMs: now, limit: 1000, leaseMs: 5000 });
    expect(runs).toHaveLength(CHECKS);
    const unstarted = runs.slice(0, 10);
    await releaseClaims(a, 'a', unstarted);
    const again = await claimDue(b, 'b', { nowMs: now, horizonMs: now, limit: 1000, leaseMs: 5000 });
    const dueBySeries = (list: typeof runs) => Object.fromEntries(list.map((run) => [run.series, run.dueAt]));
    expect(dueBySeries(again)).toEqual(dueBySeries(unstarted));
    // Releasing claims another runner holds does nothing.
    await releaseClaims(a, 'a', again);
    expect(await claimDue(a, 'a', { nowMs: now, horizonMs: now, limit: 1000, leaseMs: 5000 })).toEqual([]);
  });
});
