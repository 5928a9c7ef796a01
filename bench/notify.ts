import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { newId } from '../daemon/db/ids.js';
import { insertRows } from '../daemon/db/insert-rows.js';
import { statesOf } from '../daemon/runner/check-runtime.js';
import { writeRecords, type RunRecord } from '../daemon/runner/result-writer.js';
import { postgresProblem, startBenchDaemon, type BenchDaemon, type BenchDatabaseKind } from './import-setup.js';
import { printTable } from './table.js';

const INCIDENTS = 1000;

/** A local webhook receiver that answers 204, or (`hangs`) never answers, and counts distinct deliveries. */
async function startReceiver(hangs = false): Promise<{ url: string; received: Set<string>; requests: () => number; close(): Promise<void> }> {
  const received = new Set<string>();
  let requests = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests++;
      received.add(req.headers['x-svc-delivery'] as string);
      if (!hangs) res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    requests: () => requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** How long the case beside a hanging receiver waits for the other channel's messages. */
const HANGING_CASE_LIMIT_MS = 60_000;

/**
 * The results that find INCIDENTS checks down at once, as the runner hands them to the engine in
 * one batch: each check goes down at its first failure. The checks are disabled, so that no runner
 * runs them meanwhile.
 */
async function downResults(db: BenchDaemon['daemon']['deps']['db']['kysely'], orgUid: string): Promise<RunRecord[]> {
  const now = Date.now();
  const at = new Date(now).toISOString();
  const rows = Array.from({ length: INCIDENTS }, (_, i) => ({
    uid: newId(),
    organization_uid: orgUid,
    slug: `bench-check-${i}`,
    name: `Bench check ${i}`,
    type: 'http',
    enabled: 0 as const,
    interval_seconds: 60,
    target: 'http://127.0.0.1:9/',
    config: '{}',
    thresholds: '{}',
    labels: '{}',
    description: null,
    created_at: at,
    updated_at: at,
  }));
  await insertRows(db, 'checks', rows).execute();
  const states = await statesOf(
    db,
    rows.map((row) => row.uid),
    now,
  );
  return rows.map((row) => ({
    series: Number(states.get(row.uid)!.series),
    check: { uid: row.uid, organizationUid: orgUid, slug: row.slug, name: row.name, thresholds: { failuresBeforeDown: 1, successesBeforeUp: 1 } },
    at: now,
    result: { status: 'down', latencyMs: 0, message: 'connection refused' },
  }));
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

/**
 * The incidents' notifications to one channel, timed until all are delivered; with `besideHanging`,
 * every incident also notifies a second channel whose receiver never answers (each of its
 * deliveries times out after SVC_NOTIFY_TIMEOUT, 10 s), and the first channel's are timed.
 */
async function measure(kind: BenchDatabaseKind, besideHanging = false) {
  const receiver = await startReceiver();
  const hanging = besideHanging ? await startReceiver(true) : undefined;
  const bench = await startBenchDaemon(kind);
  try {
    const { daemon, token, orgUid } = bench;
    const results = await downResults(daemon.deps.db.kysely, orgUid);
    const create = await fetch(`${daemon.url}/api/v1/orgs/default/notification-channels`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ name: 'bench', type: 'webhook', config: { url: receiver.url, signingSecret: 'bench-signing-secret-0123456789' }, default: true }),
    });
    if (create.status !== 201) throw new Error(`channel creation answered ${create.status}`);
    if (hanging) {
      const second = await fetch(`${daemon.url}/api/v1/orgs/default/notification-channels`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ name: 'hanging', type: 'webhook', config: { url: hanging.url }, default: true }),
      });
      if (second.status !== 201) throw new Error(`channel creation answered ${second.status}`);
    }

    const sample = async () => {
      const t0 = performance.now();
      const res = await request(`${daemon.url}/api/v1/orgs/default/incidents?limit=20`, { headers: { authorization: `Bearer ${token}` } });
      await res.body.dump();
      return performance.now() - t0;
    };
    const idle: number[] = [];
    for (let i = 0; i < 50; i++) idle.push(await sample());

    // 1,000 checks found down in one batch of results: the engine opens their incidents in the
    // batch's transaction, each about its check, with the result that opened it.
    const t0 = performance.now();
    const written = await writeRecords(daemon.deps.db, results);
    if (written.length !== INCIDENTS) throw new Error(`${written.length} of ${INCIDENTS} results written`);
    const enqueueMs = performance.now() - t0;
    const busy: number[] = [];
    while (receiver.received.size < INCIDENTS) {
      busy.push(await sample());
      if (performance.now() - t0 > (hanging ? HANGING_CASE_LIMIT_MS : 300_000)) {
        if (hanging) break;
        throw new Error(`only ${receiver.received.size} of ${INCIDENTS} delivered in 5 minutes`);
      }
    }
    const drainMs = performance.now() - t0;
    idle.sort((a, b) => a - b);
    busy.sort((a, b) => a - b);
    return {
      kind,
      delivered: receiver.received.size,
      enqueueMs: Math.round(enqueueMs),
      drainMs: Math.round(drainMs),
      perSecond: Math.round(INCIDENTS / (drainMs / 1000)),
      duplicates: receiver.requests() - receiver.received.size,
      idleP50Ms: +percentile(idle, 0.5).toFixed(1),
      busyP50Ms: +percentile(busy, 0.5).toFixed(1),
      busyP95Ms: +percentile(busy, 0.95).toFixed(1),
      busyMaxMs: +busy[busy.length - 1].toFixed(1),
      samples: busy.length,
    };
  } finally {
    // Closed first, the hanging receiver's deliveries fail at once instead of holding up the stop.
    await hanging?.close();
    await bench.stop();
    await receiver.close();
  }
}

/** 1,000 incidents opened at once, delivered to a local webhook: time to drain, and API latency meanwhile. */
export async function run(): Promise<Record<string, unknown>> {
  const kinds: BenchDatabaseKind[] = ['sqlite'];
  const problem = await postgresProblem();
  if (problem) process.stdout.write(`postgres skipped: ${problem}\n`);
  else kinds.push('postgres');
  const figures: Record<string, unknown> = {};
  for (const kind of kinds) {
    const result = await measure(kind);
    figures[kind] = result;
    printTable([
      [`${kind}: 1,000 checks down in one batch of results: their incidents and messages written`, `${result.enqueueMs} ms`, ''],
      [`${kind}: time until all 1,000 delivered`, `${result.drainMs} ms (${result.perSecond}/s)`, ''],
      [`${kind}: deliveries sent twice`, String(result.duplicates), '0'],
      [`${kind}: GET incidents p50 idle`, `${result.idleP50Ms} ms`, ''],
      [`${kind}: GET incidents p50 / p95 / max while draining`, `${result.busyP50Ms} / ${result.busyP95Ms} / ${result.busyMaxMs} ms`, ''],
    ]);
    const beside = await measure(kind, true);
    figures[`${kind}BesideHanging`] = beside;
    printTable([
      [
        `${kind}: the same 1,000 beside a channel whose receiver never answers`,
        beside.delivered === INCIDENTS ? `${beside.drainMs} ms (${beside.perSecond}/s)` : `${beside.delivered} of 1,000 in ${HANGING_CASE_LIMIT_MS / 1000} s`,
        '',
      ],
    ]);
  }
  return figures;
}
