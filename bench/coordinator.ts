import { sql, type Kysely } from 'kysely';
import type { Database } from '../daemon/db/schema.js';
import { BENCH_SECRET_KEY, postgresProblem, startBenchDaemon } from './import-setup.js';
import { histogramBetween, quantileBound, readHistogram, startRunnerProcess, stopRunnerProcess } from './runner-processes.js';
import { fixed, httpChecks, load, processCpuMs, seed, sleep } from './runner-setup.js';

// The coordinator's ceiling: 1, 2 and 4 runner processes under SVC_RUNNER_DRY_RUN (no probe:
// every run is recorded up at once) against one PostgreSQL, with more runs due than they can
// take. What remains is the coordination: claims (SELECT ... FOR UPDATE SKIP LOCKED) and result
// writes. Printed for each: committed runs a second, claim time (each runner's
// svc_runner_claim_seconds), lock waits sampled from pg_stat_activity and pg_locks, and the
// runners' CPU.

const INTERVAL = 10;
const CLAIM = 'svc_runner_claim_seconds';

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
      const runners = Array.from({ length: count }, () =>
        startRunnerProcess(bench.dbUrl, {
          SVC_RUNNER_DRY_RUN: 'true',
          SVC_RUNNER_CONCURRENCY: '10000',
          SVC_RUNNER_LEASE: '30s',
          SVC_SECRET_KEY: BENCH_SECRET_KEY,
        }),
      );
      try {
        const urls = await Promise.all(runners.map((runner) => runner.metricsUrl));
        await sleep(5000);
        const before = await Promise.all(urls.map((url) => readHistogram(url, CLAIM)));
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
        const after = await Promise.all(urls.map((url) => readHistogram(url, CLAIM)));
        const cpuAfter = runners.map((runner) => processCpuMs(runner.child.pid!));
        await sleep(2000); // the last batches of the window are written
        const { n } = await db
          .selectFrom('check_results')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('at', '>=', start)
          .where('at', '<', end)
          .executeTakeFirstOrThrow();
        const claimed = histogramBetween(before, after);
        const claims = claimed.count;
        const claimSeconds = claimed.sum;
        const p99 = quantileBound(claimed, 0.99);
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
        await Promise.all(runners.map(stopRunnerProcess));
      }
    }
    figures.coordinator = { checks: options.checks, intervalSeconds: INTERVAL, secondsEach: options.seconds, found };
  } finally {
    await bench.stop();
  }
}
