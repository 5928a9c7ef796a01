import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../daemon/clock.js';
import { ensureStates } from '../../../daemon/runner/check-states.js';
import { listResults, type ResultsQuery } from '../../../daemon/runner/result-queries.js';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';

const DAY_MS = 86_400_000;
const NOW = Date.parse('2026-03-01T10:00:00Z');

// A check's results, newest first, are looked for in the last day, then the last week, then
// everywhere (daemon/runner/result-queries.ts): on PostgreSQL a query bounded in time plans only
// the day partitions it covers. Every page must be what one unbounded query would answer.
describe.each(DATABASE_KINDS)("a check's results, page by page [%s]", (kind) => {
  let daemon: TestDaemon;
  let admin: string;
  const series: Record<'dense' | 'sparse', number> = { dense: 0, sparse: 0 };
  /** Every result time of each check, newest first. */
  const times: Record<'dense' | 'sparse', number[]> = { dense: [], sparse: [] };

  beforeAll(async () => {
    daemon = await startTestDaemon(kind, { clock: manualClock(new Date(NOW)) });
    admin = await daemon.adminToken();
    for (const slug of ['dense', 'sparse'] as const) {
      const created = await daemon.request('POST', '/orgs/default/checks', {
        token: admin,
        body: { slug, name: slug, type: 'http', intervalSeconds: 60, target: 'http://127.0.0.1:9/', enabled: false },
      });
      expect(created.status).toBe(201);
    }
    const db = daemon.deps.db.kysely;
    await ensureStates(db, NOW);
    for (const row of await db.selectFrom('check_states as s').innerJoin('checks as c', 'c.uid', 's.check_uid').select(['c.slug', 's.series']).execute()) {
      series[row.slug as 'dense' | 'sparse'] = Number(row.series);
    }
    // Dense: a result a minute for the last three hours, and one a day for the 40 days before.
    // Sparse: one result every three days for 40 days, none in the last week.
    times.dense = [...Array.from({ length: 180 }, (_, i) => NOW - i * 60_000), ...Array.from({ length: 40 }, (_, d) => NOW - (d + 1) * DAY_MS - 3_600_000)];
    times.sparse = Array.from({ length: 12 }, (_, i) => NOW - (8 + 3 * i) * DAY_MS);
    for (const slug of ['dense', 'sparse'] as const) {
      await db
        .insertInto('check_results')
        .values(times[slug].map((at) => ({ series: series[slug], at, status: 0, latency_ms: 5, message: `at ${at}` })))
        .execute();
    }
  });
  afterAll(async () => {
    await daemon?.stop();
  });

  /** Every page of `slug` through the API, following the cursors: the times in the order given. */
  async function allPages(slug: string, limit: number, filters = ''): Promise<number[]> {
    const seen: number[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 100; pages++) {
      const res = await daemon.request('GET', `/orgs/default/checks/${slug}/results?limit=${limit}${filters}${cursor ? `&cursor=${cursor}` : ''}`, {
        token: admin,
      });
      expect(res.status).toBe(200);
      seen.push(...res.body.items.map((item: { at: string }) => Date.parse(item.at)));
      cursor = res.body.nextCursor;
      if (cursor === null) return seen;
    }
    throw new Error('the cursors never ended');
  }

  it('pages through every result newest first, across the search windows', async () => {
    expect(await allPages('dense', 50)).toEqual(times.dense);
    expect(await allPages('sparse', 5)).toEqual(times.sparse);
    // A page exactly as large as what the first window holds still says whether more follow.
    expect(await allPages('dense', 180)).toEqual(times.dense);
  });

  it('keeps to ?from= and ?to=', async () => {
    const from = NOW - 30 * DAY_MS;
    const to = NOW - 10 * DAY_MS;
    const filters = `&from=${new Date(from).toISOString()}&to=${new Date(to).toISOString()}`;
    expect(await allPages('dense', 7, filters)).toEqual(times.dense.filter((at) => at >= from && at <= to));
    expect(await allPages('sparse', 2, filters)).toEqual(times.sparse.filter((at) => at >= from && at <= to));
  });

  /** The queries `listResults` runs for one page, as their operation trees. */
  async function queriesOf(slug: 'dense' | 'sparse', query: ResultsQuery): Promise<string[]> {
    const seen: string[] = [];
    const observed = daemon.deps.db.kysely.withPlugin({
      transformQuery: ({ node }) => {
        seen.push(JSON.stringify(node));
        return node;
      },
      transformResult: async ({ result }) => result,
    });
    await listResults(observed, series[slug], query, NOW);
    return seen;
  }

  it('reads only the last day for a page the last day fills, and widens for a check that ran less', async () => {
    const dense = await queriesOf('dense', { limit: 50 });
    expect(dense).toHaveLength(1);
    expect(dense[0]).toContain(`"value":${NOW - DAY_MS}`);
    // Nothing in the last day nor week: the third query has no bound but those asked for.
    const sparse = await queriesOf('sparse', { limit: 5 });
    expect(sparse).toHaveLength(3);
    expect(sparse[1]).toContain(`"value":${NOW - 7 * DAY_MS}`);
    expect(sparse[2]).not.toContain(`"value":${NOW - 7 * DAY_MS}`);
    // A range narrower than a day needs no bound of its own.
    expect(await queriesOf('dense', { limit: 50, from: NOW - 3_600_000 })).toHaveLength(1);
  });
});
