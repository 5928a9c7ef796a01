import { request } from 'undici';
import { upsertChecks } from '../daemon/checks/check-store.js';
import { ensureStates } from '../daemon/runner/check-states.js';
import { BUCKET_COLUMNS } from '../daemon/runner/latency-histogram.js';
import { sampleCheck, type CheckDefinition } from '../checks/index.js';
import { measuredLoad } from './http-load.js';
import { measureOnEachDatabase } from './each-database.js';
import type { BenchDaemon } from './import-setup.js';

const CHECKS = 50;
const DAYS = 90;
const SAMPLES = 300;
const CONNECTIONS = 16;
const SECONDS = 5;
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const ROWS_PER_INSERT = 1000;

const round = (n: number) => Math.round(n * 100) / 100;

/** 50 HTTP checks with 90 days of daily and hourly aggregates, some days and checks not all up. */
async function seed(bench: BenchDaemon): Promise<void> {
  const { db } = bench.daemon.deps;
  const sample = sampleCheck('http')!;
  const checks: CheckDefinition[] = Array.from({ length: CHECKS }, (_, i) => ({ ...sample, slug: `service-${i}`, name: `Service ${i}` }));
  const now = Date.now();
  await db.kysely.transaction().execute((trx) => upsertChecks(trx, bench.orgUid, checks, { now: new Date(now) }));
  await ensureStates(db.kysely, now);
  const states = await db.kysely
    .selectFrom('check_states as s')
    .innerJoin('checks as c', 'c.uid', 's.check_uid')
    .select(['c.slug', 's.series', 's.check_uid'])
    .execute();
  for (const [index, state] of states.entries()) {
    const shown = index % 17 === 3 ? 'down' : index % 7 === 2 ? 'degraded' : 'up';
    await db.kysely
      .updateTable('check_states')
      .set({ state: shown, state_since: new Date(now).toISOString() })
      .where('check_uid', '=', state.check_uid)
      .execute();
  }
  const histogram = Object.fromEntries(BUCKET_COLUMNS.map((column, i) => [column, i === 3 ? 60 : 0])) as Record<(typeof BUCKET_COLUMNS)[number], number>;
  const today = Math.floor(now / DAY_MS);
  const daily = states.flatMap(({ series }, c) =>
    Array.from({ length: DAYS }, (_, d) => ({
      series: Number(series),
      day: today - DAYS + 1 + d,
      runs: 1440,
      down_runs: (c + d) % 23 === 0 ? 30 : 0,
      degraded_runs: 0,
      ...histogram,
      h3: 1440,
    })),
  );
  const firstHour = (today - DAYS + 1) * 24;
  const lastHour = Math.floor(now / HOUR_MS);
  const hourly = states.flatMap(({ series }) =>
    Array.from({ length: lastHour - firstHour + 1 }, (_, h) => ({
      series: Number(series),
      hour: firstHour + h,
      runs: 60,
      down_runs: 0,
      degraded_runs: 0,
      ...histogram,
    })),
  );
  for (let i = 0; i < daily.length; i += ROWS_PER_INSERT)
    await db.kysely
      .insertInto('check_daily')
      .values(daily.slice(i, i + ROWS_PER_INSERT))
      .execute();
  for (let i = 0; i < hourly.length; i += ROWS_PER_INSERT)
    await db.kysely
      .insertInto('check_hourly')
      .values(hourly.slice(i, i + ROWS_PER_INSERT))
      .execute();
  const page = await fetch(`${bench.daemon.url}/api/v1/orgs/default/status-pages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${bench.token}` },
    body: JSON.stringify({ slug: 'bench', title: 'Bench status', public: true, checks: checks.map((check) => check.slug) }),
  });
  if (page.status !== 201) throw new Error(`creating the page answered ${page.status}`);
}

/** As browsers ask. */
const HEADERS = { 'accept-encoding': 'gzip' };

/** Sequential GETs of one path: the answer's size as sent (gzip), and the median and 95th percentile latency. */
async function latency(url: string): Promise<{ bytes: number; p50Ms: number; p95Ms: number }> {
  let bytes = 0;
  const times: number[] = [];
  for (let i = 0; i < SAMPLES + 10; i++) {
    const t0 = performance.now();
    const res = await request(url, { headers: HEADERS });
    const body = Buffer.from(await res.body.arrayBuffer());
    if (res.statusCode !== 200) throw new Error(`GET ${url} answered ${res.statusCode}`);
    // The first few warm the code paths and the database's caches.
    if (i >= 10) times.push(performance.now() - t0);
    bytes = body.length;
  }
  times.sort((a, b) => a - b);
  return { bytes, p50Ms: round(times[Math.floor(times.length / 2)]), p95Ms: round(times[Math.floor(times.length * 0.95)]) };
}

async function measure(bench: BenchDaemon): Promise<Record<string, unknown>> {
  await seed(bench);
  const origin = bench.daemon.url;
  const html = await latency(`${origin}/status/default/bench`);
  const json = await latency(`${origin}/api/v1/public/status/default/bench`);
  const etag = (await request(`${origin}/status/default/bench`, { headers: HEADERS })).headers.etag as string;
  const load = await measuredLoad({
    origin,
    path: '/status/default/bench',
    headers: HEADERS,
    connections: CONNECTIONS,
    seconds: SECONDS,
    maxRequests: 1_000_000,
  });
  const revalidated = await measuredLoad({
    origin,
    path: '/status/default/bench',
    headers: { ...HEADERS, 'if-none-match': etag },
    connections: CONNECTIONS,
    seconds: SECONDS,
    maxRequests: 1_000_000,
  });
  return {
    html,
    json,
    htmlLoad: {
      requestsPerSecond: round(load.requestsPerSecond),
      serverCpuMicrosPerRequest: round(load.cpuMicros / load.requests),
      p50Ms: round(load.p50Ms),
      p99Ms: round(load.p99Ms),
      requests: load.requests,
      errors: load.errors,
    },
    // http-load counts any answer but 200 as an error: here every 304 is one, so only the rate counts.
    notModifiedLoad: {
      requestsPerSecond: round(revalidated.requestsPerSecond),
      serverCpuMicrosPerRequest: round(revalidated.cpuMicros / revalidated.requests),
      p50Ms: round(revalidated.p50Ms),
      p99Ms: round(revalidated.p99Ms),
      requests: revalidated.requests,
    },
  };
}

function rows(kind: string, f: any): string[][] {
  return [
    [
      `${kind}: GET /status/{org}/{page}, ${CHECKS} checks × ${DAYS} days, p50 / p95`,
      `${f.html.p50Ms} / ${f.html.p95Ms} ms (${Math.round(f.html.bytes / 1024)} KiB gzip)`,
      'target p95 < 20 ms',
    ],
    [`${kind}: GET /api/v1/public/status/{org}/{page}, p50 / p95`, `${f.json.p50Ms} / ${f.json.p95Ms} ms (${Math.round(f.json.bytes / 1024)} KiB gzip)`, ''],
    [
      `${kind}: HTML page, ${CONNECTIONS} connections`,
      `${f.htmlLoad.requestsPerSecond} req/s, ${f.htmlLoad.serverCpuMicrosPerRequest} µs server CPU each (p99 ${f.htmlLoad.p99Ms} ms, ${f.htmlLoad.errors} errors)`,
      '',
    ],
    [
      `${kind}: HTML page revalidated (304), ${CONNECTIONS} connections`,
      `${f.notModifiedLoad.requestsPerSecond} req/s, ${f.notModifiedLoad.serverCpuMicrosPerRequest} µs server CPU each (p99 ${f.notModifiedLoad.p99Ms} ms)`,
      '',
    ],
  ];
}

/**
 * The public status page with 50 checks and 90 days of aggregates: the latency of the HTML
 * route (target p95 under 20 ms) and of its JSON, and requests per second from 16 keep-alive
 * clients in a child process, fresh and revalidated by ETag. The per-client rate limit is
 * lifted: one client is the whole load here. On SQLite, and on PostgreSQL when one answers.
 */
export async function run(): Promise<Record<string, unknown>> {
  const figures: Record<string, unknown> = { checks: CHECKS, days: DAYS, samples: SAMPLES, connections: CONNECTIONS, seconds: SECONDS };
  return measureOnEachDatabase({ figures, env: { SVC_STATUS_PAGE_RATE_LIMIT: '100000000' }, measure, rows });
}
