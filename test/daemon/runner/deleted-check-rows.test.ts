import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../daemon/clock.js';
import { statesOf } from '../../../daemon/runner/check-runtime.js';
import { pruneOnce } from '../../../daemon/runner/pruner.js';
import { writeRecords, type RunRecord } from '../../../daemon/runner/result-writer.js';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';

const NOW = Date.parse('2026-03-20T13:30:00Z');

describe.each(DATABASE_KINDS)('the rows of a deleted check [%s]', (kind) => {
  const clock = manualClock(new Date(NOW));
  let daemon: TestDaemon;
  let admin: string;
  const series: Record<string, number> = {};

  beforeAll(async () => {
    daemon = await startTestDaemon(kind, { clock });
    admin = await daemon.adminToken();
    const org = await daemon.deps.db.kysely.selectFrom('organizations').select('uid').executeTakeFirstOrThrow();
    for (const slug of ['first', 'second', 'third']) {
      const created = await daemon.request('POST', '/orgs/default/checks', {
        token: admin,
        body: { name: slug, slug, type: 'http', target: `https://${slug}.example.com` },
      });
      expect(created.status).toBe(201);
      const { uid } = await daemon.deps.db.kysely.selectFrom('checks').select('uid').where('slug', '=', slug).executeTakeFirstOrThrow();
      series[slug] = Number((await statesOf(daemon.deps.db.kysely, [uid], NOW)).get(uid)!.series);
      const check = { uid, organizationUid: org.uid, slug, name: slug, thresholds: { failuresBeforeDown: 1, successesBeforeUp: 1 } };
      // More rows than one delete statement takes, over three days.
      const records: RunRecord[] = Array.from({ length: 12_000 }, (_, i) => ({
        series: series[slug],
        check,
        at: NOW - i * 20_000,
        result: { status: 'up', latencyMs: 10 + (i % 50), message: 'ok' },
      }));
      for (let i = 0; i < records.length; i += 1000) await writeRecords(daemon.deps.db, records.slice(i, i + 1000));
    }
  });
  afterAll(() => daemon.stop());

  const rowsOf = async (s: number) => {
    const counts: Record<string, number> = {};
    for (const table of ['check_results', 'check_hourly', 'check_daily'] as const) {
      const row = await daemon.deps.db.kysely
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('series', '=', s)
        .executeTakeFirstOrThrow();
      counts[table] = Number(row.n);
    }
    return counts;
  };

  it('go at the next pruning, and the rows of the checks beside it stay', async () => {
    const kept = { first: await rowsOf(series.first), third: await rowsOf(series.third) };
    expect(kept.first.check_results).toBe(12_000);
    expect((await daemon.request('DELETE', '/orgs/default/checks/second', { token: admin })).status).toBe(204);
    const before = await rowsOf(series.second);
    expect(before.check_results).toBe(12_000);
    const pruned = await pruneOnce(daemon.deps.db, NOW, 30 * 86400);
    expect(pruned.rows).toBe(before.check_results + before.check_hourly + before.check_daily);
    expect(await rowsOf(series.second)).toEqual({ check_results: 0, check_hourly: 0, check_daily: 0 });
    expect(await rowsOf(series.first)).toEqual(kept.first);
    expect(await rowsOf(series.third)).toEqual(kept.third);
  });
});
