import { availableParallelism, loadavg } from 'node:os';
import { sql } from 'kysely';
import { request } from 'undici';
import { sampleCheck, type CheckDefinition } from '../checks/index.js';
import { upsertChecks } from '../daemon/checks/check-store.js';
import { ensureResultPartitions } from '../daemon/db/result-partitions.js';
import { ensureStates } from '../daemon/runner/check-states.js';
import { measureOnEachDatabase } from './each-database.js';
import { measuredLoad } from './http-load.js';
import type { BenchDaemon } from './import-setup.js';

// `npm run bench -- check-list`: the API's check list as the dashboard asks for it, a page of
// 100 checks with state, 24-hour uptime and sparklines (`?include=uptime24h,latencies`), over
// 7 days of results of one run a minute per check (about a million rows), asked for one at a time
// by a client in another process. Target p95 < 20 ms.

const CHECKS = 100;
const DAYS = 7;
const SAMPLES = 200;
const WARM_UP = 20;
const DAY_MS = 86_400_000;
const TARGET_MS = 20;

const round = (n: number) => Math.round(n * 10) / 10;

async function seed(bench: BenchDaemon, now: number): Promise<void> {
  const { db } = bench.daemon.deps;
  const sample = sampleCheck('http')!;
  const checks: CheckDefinition[] = Array.from({ length: CHECKS }, (_, i) => ({ ...sample, slug: `service-${i}`, name: `Service ${i}` }));
  await db.kysely.transaction().execute((trx) => upsertChecks(trx, bench.orgUid, checks, { now: new Date(now) }));
  await ensureStates(db.kysely, now);
  const series = (await db.kysely.selectFrom('check_states').select('series').execute()).map((r) => Number(r.series));
  const runs = (DAYS * DAY_MS) / 60_000;
  const first = now - runs * 60_000;
  if (db.kind === 'postgres') {
    // The partitions of the past days, as a runner that has run this long has made them.
    const { rows } = await sql<{ relkind: string }>`select relkind from pg_class where relname = 'check_results'`.execute(db.kysely);
    if (rows[0]?.relkind === 'p') await ensureResultPartitions(db.kysely, first, DAYS + 1);
    for (const s of series)
      await sql`insert into check_results (series, at, status, latency_ms, message)
        select ${s}, ${first}::bigint + g * 60000, 0, 20 + g % 90, null from generate_series(0, ${runs - 1}) g`.execute(db.kysely);
    await sql`analyze`.execute(db.kysely);
  } else {
    for (const s of series)
      await sql`insert into check_results (series, at, status, latency_ms, message)
        with recursive g(i) as (select 0 union all select i + 1 from g where i < ${runs - 1})
        select ${s}, ${first} + i * 60000, 0, 20 + i % 90, null from g`.execute(db.kysely);
  }
  await db.kysely
    .updateTable('check_states')
    .set({ state: 'up', last_at: now - 60_000, last_status: 0, last_latency_ms: 25 })
    .execute();
}

interface ListFigures {
  p50Ms: number;
  p95Ms: number;
  /** The daemon's CPU per request (the client is another process). */
  cpuMsPerRequest: number;
  items: number;
  loadAverage: [number, number];
}

async function measure(bench: BenchDaemon): Promise<ListFigures> {
  const now = Date.now();
  await seed(bench, now);
  const origin = bench.daemon.url;
  const path = `/api/v1/orgs/default/checks?limit=${CHECKS}&include=uptime24h,latencies`;
  const headers = { authorization: `Bearer ${bench.token}` };
  const res = await request(`${origin}${path}`, { headers });
  const body = (await res.body.json()) as { items: Array<{ recentLatencies: number[] }> };
  if (res.statusCode !== 200) throw new Error(`GET checks answered ${res.statusCode}`);
  const items = body.items.filter((item) => item.recentLatencies.length === 20).length;
  // One request at a time, as the dashboard asks, from a client in another process, so that the
  // client's work is not in the daemon's event loop: the first requests warm the code paths and
  // the database's caches.
  const load = (requests: number) => measuredLoad({ origin, path, headers, connections: 1, seconds: 600, maxRequests: requests });
  await load(WARM_UP);
  const loadStart = loadavg()[0];
  const measured = await load(SAMPLES);
  if (measured.errors > 0) throw new Error(`${measured.errors} of ${measured.requests} requests failed`);
  return {
    p50Ms: round(measured.p50Ms),
    p95Ms: round(measured.p95Ms),
    cpuMsPerRequest: round(measured.cpuMicros / measured.requests / 1000),
    items,
    loadAverage: [round(loadStart), round(loadavg()[0])],
  };
}

export async function run(): Promise<Record<string, unknown>> {
  return measureOnEachDatabase<ListFigures>({
    figures: { checks: CHECKS, days: DAYS, samples: SAMPLES, cores: availableParallelism() },
    measure,
    rows: (kind, f) => [
      [
        `${kind}: GET checks?include=uptime24h,latencies, ${CHECKS} checks, p50 / p95`,
        `${f.p50Ms} / ${f.p95Ms} ms (${f.items} sparklines)`,
        `p95 < ${TARGET_MS} ms`,
      ],
      [`${kind}: the daemon's CPU per request`, `${f.cpuMsPerRequest} ms`, ''],
      [`${kind}: load average (1 min) at start / end`, `${f.loadAverage[0]} / ${f.loadAverage[1]}`, `${availableParallelism()} cores`],
    ],
  });
}
