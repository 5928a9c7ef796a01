import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../daemon/clock.js';
import { statesOf } from '../../../daemon/runner/check-runtime.js';
import { pruneOnce } from '../../../daemon/runner/pruner.js';
import { UPTIME_WINDOWS, uptimeOf, type UptimeWindow } from '../../../daemon/runner/result-queries.js';
import { writeRecords, type RunRecord } from '../../../daemon/runner/result-writer.js';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';

const NOW = Date.parse('2026-03-20T13:30:00Z');
const HOUR = 3_600_000;

describe.each(DATABASE_KINDS)('uptime from the aggregates, and pruning [%s]', (kind) => {
  const clock = manualClock(new Date(NOW));
  let daemon: TestDaemon;
  let admin: string;
  let series: number;
  // One result every 20 minutes for 40 days; every 7th down, latencies 5 to 500 ms.
  const records: Array<{ at: number; down: boolean; latencyMs: number }> = [];

  beforeAll(async () => {
    daemon = await startTestDaemon(kind, { clock });
    admin = await daemon.adminToken();
    const created = await daemon.request('POST', '/orgs/default/checks', {
      token: admin,
      body: { name: 'Api', type: 'http', target: 'https://api.example.com' },
    });
    const uid = (await daemon.deps.db.kysely.selectFrom('checks').select('uid').executeTakeFirstOrThrow()).uid;
    expect(created.status).toBe(201);
    series = Number((await statesOf(daemon.deps.db.kysely, [uid], NOW)).get(uid)!.series);
    for (let at = NOW - 40 * 24 * HOUR; at <= NOW; at += 20 * 60_000)
      records.push({ at, down: records.length % 7 === 0, latencyMs: 5 + (records.length % 100) * 5 });
    const check = { uid, organizationUid: 'x', slug: 'api', name: 'Api', thresholds: { failuresBeforeDown: 1, successesBeforeUp: 1 } };
    const batch: RunRecord[] = records.map(({ at, down, latencyMs }) => ({
      series,
      check,
      at,
      result: { status: down ? 'down' : 'up', latencyMs, message: down ? 'refused' : 'ok' },
    }));
    // check_state_changes needs the real organization.
    const org = await daemon.deps.db.kysely.selectFrom('organizations').select('uid').executeTakeFirstOrThrow();
    for (const record of batch) record.check.organizationUid = org.uid;
    for (let i = 0; i < batch.length; i += 500) await writeRecords(daemon.deps.db, batch.slice(i, i + 500));
  });
  afterAll(() => daemon.stop());

  it.each(Object.keys(UPTIME_WINDOWS) as UptimeWindow[])('counts exactly the runs of the %s window', async (window) => {
    const from = (Math.floor(NOW / HOUR) - UPTIME_WINDOWS[window] + 1) * HOUR;
    const inside = records.filter((r) => r.at >= from);
    const down = inside.filter((r) => r.down).length;
    const uptime = (await uptimeOf(daemon.deps.db.kysely, [series], window, NOW)).get(series)!;
    expect(uptime).toMatchObject({ window, runs: inside.length, downRuns: down });
    expect(uptime.uptimePercent).toBeCloseTo(((inside.length - down) / inside.length) * 100, 2);
    expect(uptime.latencyP50Ms).toBeGreaterThan(100);
    expect(uptime.latencyP95Ms).toBeGreaterThan(uptime.latencyP50Ms!);
    const api = await daemon.request('GET', `/orgs/default/checks/api/uptime?window=${window}&bucket=day`, { token: admin });
    expect(api.body).toMatchObject({ runs: inside.length, downRuns: down });
    expect(api.body.buckets.reduce((sum: number, b: { runs: number }) => sum + b.runs, 0)).toBe(inside.length);
  });

  it('prunes raw results past the retention and keeps the aggregates', async () => {
    const pruned = await pruneOnce(daemon.deps.db, NOW, 7 * 86400);
    const kept = records.filter((r) => r.at >= NOW - 7 * 86400_000).length;
    // SQLite deletes old results row by row and counts them; PostgreSQL drops their day partitions or deletes them from the default one.
    if (daemon.deps.db.kind === 'sqlite') expect(pruned).toEqual({ rows: records.length - kept, partitions: [] });
    const rows = await daemon.deps.db.kysely
      .selectFrom('check_results')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(rows.n)).toBe(kept);
    const uptime = (await uptimeOf(daemon.deps.db.kysely, [series], '30d', NOW)).get(series)!;
    expect(uptime.runs).toBe(records.filter((r) => r.at >= (Math.floor(NOW / HOUR) - 719) * HOUR).length);
    // A deleted check's results go at the next pruning, found by the gap in the series.
    await daemon.request('POST', '/orgs/default/checks', { token: admin, body: { name: 'Later', type: 'http', target: 'https://later.example.com' } });
    expect((await daemon.request('DELETE', '/orgs/default/checks/api', { token: admin })).status).toBe(204);
    await pruneOnce(daemon.deps.db, NOW, 7 * 86400);
    for (const table of ['check_results', 'check_hourly', 'check_daily'] as const) {
      expect(await daemon.deps.db.kysely.selectFrom(table).selectAll().where('series', '=', series).execute(), table).toEqual([]);
    }
  });
});
