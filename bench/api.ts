import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import Koa from 'koa';
import { request } from 'undici';
import { upsertChecks } from '../daemon/checks/check-store.js';
import { sampleCheck, type CheckDefinition } from '../checks/index.js';
import { measuredLoad, runLoad, type LoadResult, type MeasuredLoad } from './http-load.js';
import { measureOnEachDatabase } from './each-database.js';
import type { BenchDaemon } from './import-setup.js';

const CHECKS = 10_000;
const CONNECTIONS = 16;
const SECONDS_PER_ROUND = 3;
const ROUNDS = 2;
const MAX_REQUESTS_PER_ROUND = 500_000;
const LATENCY_SAMPLES = 100;
const TYPES = ['http', 'tcp', 'dns', 'icmp', 'tls'] as const;

function benchChecks(): CheckDefinition[] {
  const samples = TYPES.map((type) => sampleCheck(type)!);
  return Array.from({ length: CHECKS }, (_, i) => ({
    ...samples[i % samples.length],
    slug: `bench-${String(i).padStart(5, '0')}`,
    name: `Bench check ${i}`,
    labels: { team: `team-${i % 20}`, env: ['prod', 'staging', 'dev'][i % 3], ...(i % 2 === 0 ? { 'svc-managed': 'configfile-monitor' } : {}) },
  }));
}

async function getJson(url: string, token?: string): Promise<{ status: number; ms: number; body: unknown }> {
  const t0 = performance.now();
  const res = await request(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  const body = await res.body.json();
  return { status: res.statusCode, ms: performance.now() - t0, body };
}

/** Sequential GETs: the cold first one, then the median and 95th percentile of the rest. */
async function latency(url: string, token: string): Promise<{ coldMs: number; p50Ms: number; p95Ms: number; items: number }> {
  const first = await getJson(url, token);
  if (first.status !== 200) throw new Error(`GET ${url} answered ${first.status}: ${JSON.stringify(first.body)}`);
  const times: number[] = [];
  for (let i = 0; i < LATENCY_SAMPLES; i++) times.push((await getJson(url, token)).ms);
  times.sort((a, b) => a - b);
  return {
    coldMs: first.ms,
    p50Ms: times[Math.floor(times.length / 2)],
    p95Ms: times[Math.floor(times.length * 0.95)],
    items: (first.body as { items: unknown[] }).items.length,
  };
}

/** A Koa app with one route and nothing else, answering `body`: the baseline. */
async function startBareKoa(body: unknown): Promise<{ origin: string; close(): Promise<void> }> {
  const app = new Koa();
  const router = new Router();
  router.get('/bare', (ctx) => {
    ctx.body = body;
  });
  app.use(router.routes());
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function combine(results: MeasuredLoad[]): LoadResult & { cpuMicrosPerRequest: number } {
  const requests = results.reduce((n, r) => n + r.requests, 0);
  const seconds = results.reduce((n, r) => n + r.seconds, 0);
  return {
    requests,
    cpuMicrosPerRequest: results.reduce((n, r) => n + r.cpuMicros, 0) / requests,
    errors: results.reduce((n, r) => n + r.errors, 0),
    seconds,
    requestsPerSecond: requests / seconds,
    p50Ms: Math.max(...results.map((r) => r.p50Ms)),
    p95Ms: Math.max(...results.map((r) => r.p95Ms)),
    p99Ms: Math.max(...results.map((r) => r.p99Ms)),
  };
}

/** Everything measured on one database. */
async function measure(bench: BenchDaemon): Promise<Record<string, unknown>> {
  const { daemon, token, orgUid } = bench;
  const { db } = daemon.deps;
  const t0 = performance.now();
  await db.kysely.transaction().execute((trx) => upsertChecks(trx, orgUid, benchChecks(), { now: new Date() }));
  const seedMs = performance.now() - t0;

  const list = `${daemon.url}/api/v1/orgs/default/checks`;
  const firstPage = await latency(list, token);
  const fullPage = await latency(`${list}?limit=500`, token);
  const byLabel = await latency(`${list}?label=team=team-7&label=env=staging`, token);
  const byType = await latency(`${list}?type=dns`, token);
  const after500 = (await getJson(`${list}?limit=500`, token)).body as { nextCursor: string };
  const deepPage = await latency(`${list}?cursor=${after500.nextCursor}`, token);

  // Requests per second: the same small JSON answer, once behind the whole auth and role
  // check plus a database read, once from a bare Koa route.
  const one = await getJson(`${list}/bench-04242`, token);
  const bare = await startBareKoa(one.body);
  const authed: MeasuredLoad[] = [];
  const baseline: MeasuredLoad[] = [];
  // Where the difference goes: the daemon's own stack on a route with no credential and no
  // database read, and one that only authenticates a session.
  const unauthenticated: MeasuredLoad[] = [];
  const authenticatedOnly: MeasuredLoad[] = [];
  try {
    const spec = { connections: CONNECTIONS, seconds: SECONDS_PER_ROUND, maxRequests: MAX_REQUESTS_PER_ROUND };
    const authedSpec = { ...spec, origin: daemon.url, path: '/api/v1/orgs/default/checks/bench-04242', headers: { authorization: `Bearer ${token}` } };
    const bareSpec = { ...spec, origin: bare.origin, path: '/bare', headers: {} };
    const healthSpec = { ...spec, origin: daemon.url, path: '/api/v1/health', headers: {} };
    await runLoad({ ...authedSpec, seconds: 1 });
    await runLoad({ ...bareSpec, seconds: 1 });
    // Alternating rounds, so drift in the machine's load affects both sides alike.
    for (let round = 0; round < ROUNDS; round++) {
      baseline.push(await measuredLoad(bareSpec));
      authed.push(await measuredLoad(authedSpec));
      unauthenticated.push(await measuredLoad(healthSpec));
      authenticatedOnly.push(await measuredLoad({ ...healthSpec, headers: authedSpec.headers }));
    }
  } finally {
    await bare.close();
  }
  const a = combine(authed);
  const b = combine(baseline);
  const health = combine(unauthenticated);
  const sessionOnly = combine(authenticatedOnly);
  return {
    checks: CHECKS,
    seedMs: round(seedMs),
    firstPage: { limit: firstPage.items, coldMs: round(firstPage.coldMs), p50Ms: round(firstPage.p50Ms), p95Ms: round(firstPage.p95Ms) },
    firstPage500: { limit: fullPage.items, p50Ms: round(fullPage.p50Ms), p95Ms: round(fullPage.p95Ms) },
    labelFilteredFirstPage: { p50Ms: round(byLabel.p50Ms), p95Ms: round(byLabel.p95Ms) },
    typeFilteredFirstPage: { p50Ms: round(byType.p50Ms), p95Ms: round(byType.p95Ms) },
    deepPage: { p50Ms: round(deepPage.p50Ms), p95Ms: round(deepPage.p95Ms) },
    authenticatedGet: {
      requestsPerSecond: round(a.requestsPerSecond),
      serverCpuMicrosPerRequest: round(a.cpuMicrosPerRequest),
      p50Ms: round(a.p50Ms),
      p99Ms: round(a.p99Ms),
      requests: a.requests,
      errors: a.errors,
    },
    bareKoa: {
      requestsPerSecond: round(b.requestsPerSecond),
      serverCpuMicrosPerRequest: round(b.cpuMicrosPerRequest),
      p50Ms: round(b.p50Ms),
      p99Ms: round(b.p99Ms),
      requests: b.requests,
      errors: b.errors,
    },
    healthWithoutCredential: { requestsPerSecond: round(health.requestsPerSecond), serverCpuMicrosPerRequest: round(health.cpuMicrosPerRequest) },
    healthWithSession: { requestsPerSecond: round(sessionOnly.requestsPerSecond), serverCpuMicrosPerRequest: round(sessionOnly.cpuMicrosPerRequest) },
    ratio: round(a.requestsPerSecond / b.requestsPerSecond),
    // Less sensitive to other work on the machine than requests per second.
    cpuRatio: round(b.cpuMicrosPerRequest / a.cpuMicrosPerRequest),
  };
}

const round = (n: number) => Math.round(n * 100) / 100;

function rows(kind: string, f: any): string[][] {
  return [
    [`${kind}: seed ${CHECKS.toLocaleString('en')} checks (upsertChecks, one transaction)`, `${f.seedMs} ms`, ''],
    [
      `${kind}: GET /orgs/{org}/checks first page (${f.firstPage.limit}) cold / p50 / p95`,
      `${f.firstPage.coldMs} / ${f.firstPage.p50Ms} / ${f.firstPage.p95Ms} ms`,
      'target < 50 ms',
    ],
    [`${kind}: first page of 500, p50 / p95`, `${f.firstPage500.p50Ms} / ${f.firstPage500.p95Ms} ms`, ''],
    [`${kind}: ?label=team=…&label=env=… first page, p50 / p95`, `${f.labelFilteredFirstPage.p50Ms} / ${f.labelFilteredFirstPage.p95Ms} ms`, 'target < 50 ms'],
    [`${kind}: ?type=dns first page, p50 / p95`, `${f.typeFilteredFirstPage.p50Ms} / ${f.typeFilteredFirstPage.p95Ms} ms`, ''],
    [`${kind}: page after 500 checks, p50 / p95`, `${f.deepPage.p50Ms} / ${f.deepPage.p95Ms} ms`, ''],
    [
      `${kind}: authenticated GET /orgs/{org}/checks/{slug}`,
      `${f.authenticatedGet.requestsPerSecond} req/s (p99 ${f.authenticatedGet.p99Ms} ms, ${f.authenticatedGet.errors} errors)`,
      '',
    ],
    [`${kind}: bare Koa route, same answer`, `${f.bareKoa.requestsPerSecond} req/s (p99 ${f.bareKoa.p99Ms} ms, ${f.bareKoa.errors} errors)`, ''],
    [`${kind}: ratio authenticated / bare`, String(f.ratio), 'target ≥ 0.5'],
    [
      `${kind}: server CPU per request, authenticated / bare`,
      `${f.authenticatedGet.serverCpuMicrosPerRequest} / ${f.bareKoa.serverCpuMicrosPerRequest} µs (ratio ${f.cpuRatio})`,
      '',
    ],
    [
      `${kind}: GET /health, no credential / with a session`,
      `${f.healthWithoutCredential.requestsPerSecond} / ${f.healthWithSession.requestsPerSecond} req/s, ${f.healthWithoutCredential.serverCpuMicrosPerRequest} / ${f.healthWithSession.serverCpuMicrosPerRequest} µs`,
      '',
    ],
  ];
}

/**
 * The API on 10,000 checks: the first page of the check list (target under 50 ms), and
 * requests per second of an authenticated org-scoped GET against a bare Koa route in the same
 * run (target ratio at least 0.5). A real daemon on loopback; the load comes from
 * {@link CONNECTIONS} keep-alive clients in a child process, for a bounded time and count.
 * On SQLite, and on PostgreSQL when one answers.
 */
export async function run(): Promise<Record<string, unknown>> {
  const figures: Record<string, unknown> = { connections: CONNECTIONS, secondsPerRound: SECONDS_PER_ROUND, rounds: ROUNDS };
  return measureOnEachDatabase({ figures, measure, rows });
}
