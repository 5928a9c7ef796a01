import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../daemon/db/schema.js';
import { BENCH_SECRET_KEY, postgresProblem, startBenchDaemon } from './import-setup.js';
import { fixed, httpChecks, load, processCpuMs, seed, sleep } from './runner-setup.js';

// The coordinator's ceiling: 1, 2 and 4 runner processes under SVC_RUNNER_DRY_RUN (no probe:
// every run is recorded up at once) against one PostgreSQL, with more runs due than they can
// take. What remains is the coordination: claims (SELECT ... FOR UPDATE SKIP LOCKED) and result
// writes. Printed for each: committed runs a second, claim time (each runner's
// svc_runner_claim_seconds), lock waits sampled from pg_stat_activity and pg_locks, and the
// runners' CPU.

const SVC_BIN = fileURLToPath(new URL('../../bin/svc', import.meta.url));
const INTERVAL = 10;

interface Runner {
  child: ChildProcess;
  metricsUrl: Promise<string>;
}

function startRunner(dbUrl: string): Runner {
  const child = spawn(process.execPath, [SVC_BIN, 'daemon'], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      SVC_DB_URL: dbUrl,
      SVC_NODE_ROLE: 'runner',
      SVC_RUNNER_DRY_RUN: 'true',
      SVC_RUNNER_CONCURRENCY: '10000',
      SVC_RUNNER_LEASE: '30s',
      SVC_METRICS_LISTEN: '127.0.0.1:0',
      SVC_LOG_LEVEL: 'error',
      SVC_AUTH_JWT_SECRET: 'bench-secret-bench-secret-bench-secret',
      SVC_SECRET_KEY: BENCH_SECRET_KEY,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const metricsUrl = new Promise<string>((resolve, reject) => {
    let text = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const url = /Prometheus metrics at (\S+)/.exec(text)?.[1];
      if (url) resolve(url);
      // What a runner logs after its start (errors only) is shown.
      if (url && !chunk.toString().includes('Prometheus metrics at')) process.stderr.write(chunk);
    });
    child.once('exit', (code) => reject(new Error(`runner exited with ${code}: ${text.slice(-500)}`)));
  });
  return { child, metricsUrl };
}

async function stopRunner(runner: Runner): Promise<void> {
  if (runner.child.exitCode !== null) return;
  const exited = new Promise((resolve) => runner.child.once('exit', resolve));
  runner.child.kill('SIGTERM');
  const timer = setTimeout(() => runner.child.kill('SIGKILL'), 20_000);
  await exited;
  clearTimeout(timer);
}

/** The claim histogram of one runner: count, sum and the cumulative buckets. */
async function claimHistogram(metricsUrl: string): Promise<{ count: number; sum: number; buckets: Map<number, number> }> {
  const text = await (await fetch(metricsUrl)).text();
  const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? 0);
  const buckets = new Map<number, number>();
  for (const [, le, count] of text.matchAll(/^svc_runner_claim_seconds_bucket\{le="([^"]+)"\} (\S+)$/gm)) {
    buckets.set(le === '+Inf' ? Infinity : Number(le), Number(count));
  }
  return { count: value('svc_runner_claim_seconds_count'), sum: value('svc_runner_claim_seconds_sum'), buckets };
}

/** The bucket bound under which 99 % of the claims between two readings fell. */
function p99Bound(before: Map<number, number>, after: Map<number, number>, count: number): number {
  for (const [le, total] of [...after].sort((a, b) => a[0] - b[0])) {
    if (total - (before.get(le) ?? 0) >= 0.99 * count) return le;
  }
  return Infinity;
}

/** Every result row stored, whatever its time: what the runners committed between two readings. */
async function resultRows(db: Kysely<Database>): Promise<number> {
  const { n } = await db
    .selectFrom('check_results')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(n);
}

export async function coordinatorCeiling(rows: string[][], figures: Record<string, unknown>, options: { seconds: number; checks: number }) {
  const problem = await postgresProblem();
  if (problem) {
    rows.push(['coordinator ceiling on PostgreSQL', `skipped: ${problem}`, '']);
    return;
  }
  const bench = await startBenchDaemon('postgres');
  const db = bench.daemon.deps.db.kysely;
  const found: Record<string, unknown>[] = [];
  try {
    // Targets are never reached: no probe runs.
    await seed(bench, httpChecks(options.checks, INTERVAL, 'http://127.0.0.1:9'));
    rows.push([
      `coordinator ceiling: ${options.checks.toLocaleString('en')} checks at ${INTERVAL} s (${options.checks / INTERVAL} runs/s due), dry run, PostgreSQL`,
      '',
      '',
    ]);
    for (const count of [1, 2, 4]) {
      // Every run due again, spread over the next interval, no lease held.
      const now = Date.now();
      await sql`update check_states set lease_owner = null, next_run_at = cast(${now + 3000} as bigint) + (series % ${INTERVAL * 1000})`.execute(db);
      const runners = Array.from({ length: count }, () => startRunner(bench.dbUrl));
      try {
        const urls = await Promise.all(runners.map((runner) => runner.metricsUrl));
        await sleep(5000);
        const before = await Promise.all(urls.map(claimHistogram));
        const cpuBefore = runners.map((runner) => processCpuMs(runner.child.pid!));
        const rowsBefore = await resultRows(db);
        const start = Date.now();
        let samples = 0;
        let lockWaiting = 0;
        let samplesWithLockWait = 0;
        let notGranted = 0;
        while (Date.now() - start < options.seconds * 1000) {
          const { rows: waits } = await sql<{ waiting: string; ungranted: string }>`
            select (select count(*) from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock') as waiting,
                   (select count(*) from pg_locks l join pg_database d on d.oid = l.database where d.datname = current_database() and not l.granted) as ungranted`.execute(
            db,
          );
          samples++;
          lockWaiting += Number(waits[0].waiting);
          notGranted += Number(waits[0].ungranted);
          if (Number(waits[0].waiting) > 0) samplesWithLockWait++;
          await sleep(200);
        }
        const end = Date.now();
        const rowsAfter = await resultRows(db);
        const after = await Promise.all(urls.map(claimHistogram));
        const cpuAfter = runners.map((runner) => processCpuMs(runner.child.pid!));
        await sleep(2000); // the last batches of the window are written
        const { n } = await db
          .selectFrom('check_results')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('at', '>=', start)
          .where('at', '<', end)
          .executeTakeFirstOrThrow();
        const claims = after.reduce((sum, h, i) => sum + h.count - before[i].count, 0);
        const claimSeconds = after.reduce((sum, h, i) => sum + h.sum - before[i].sum, 0);
        const merged = (histograms: typeof after) => {
          const all = new Map<number, number>();
          for (const h of histograms) for (const [le, c] of h.buckets) all.set(le, (all.get(le) ?? 0) + c);
          return all;
        };
        const p99 = p99Bound(merged(before), merged(after), claims);
        const seconds = (end - start) / 1000;
        const cpuShares = cpuAfter.map((cpu, i) => (cpu.user + cpu.system - cpuBefore[i].user - cpuBefore[i].system) / 10 / seconds);
        const figure = {
          runners: count,
          committedPerSecond: (rowsAfter - rowsBefore) / seconds,
          startedAndCommittedPerSecond: Number(n) / seconds,
          claims,
          claimMeanMs: claims > 0 ? (claimSeconds * 1000) / claims : NaN,
          claimP99AtMostMs: p99 * 1000,
          lockWaitSampleShare: samplesWithLockWait / samples,
          lockWaitingBackendsMean: lockWaiting / samples,
          ungrantedLocksMean: notGranted / samples,
          runnerCpuPercent: cpuShares,
          loadAverage: load(),
        };
        found.push(figure);
        rows.push([
          `  ${count} runner${count > 1 ? 's' : ''}: committed runs/s`,
          `${fixed(figure.committedPerSecond)} (${fixed(figure.committedPerSecond * 60)} a minute; load ${figure.loadAverage})`,
          '',
        ]);
        rows.push(['    of the runs started in the window, committed by 2 s after it (a second)', `${fixed(figure.startedAndCommittedPerSecond)}`, '']);
        rows.push([
          '    claim mean / p99 (bucket bound)',
          `${fixed(figure.claimMeanMs, 1)} / ≤ ${fixed(figure.claimP99AtMostMs)} ms over ${claims} claims`,
          '',
        ]);
        rows.push([
          '    lock waits (pg_stat_activity Lock, sampled every 200 ms)',
          `${fixed(figure.lockWaitSampleShare * 100)} % of samples, ${fixed(figure.lockWaitingBackendsMean, 2)} backends waiting on average, ${fixed(figure.ungrantedLocksMean, 2)} locks not granted`,
          '',
        ]);
        rows.push(['    runner CPU (share of one core each)', cpuShares.map((share) => `${fixed(share)} %`).join(', '), '']);
      } finally {
        await Promise.all(runners.map(stopRunner));
      }
    }
    figures.coordinator = { checks: options.checks, intervalSeconds: INTERVAL, secondsEach: options.seconds, found };
  } finally {
    await bench.stop();
  }
}
