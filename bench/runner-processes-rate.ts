import { startBenchDaemon } from './import-setup.js';
import { histogramBetween, quantileBound, readHistogram, startRunnerProcess, stopRunnerProcess } from './runner-processes.js';
import { fixed, httpChecks, load, processCpuMs, seed, sleep } from './runner-setup.js';

// The highest rate two runner processes sustain on one SQLite file (one machine, both cores):
// HTTP checks at 10 s against the local target, lag p99 under 1 s. The runners share the due
// runs through their claims, as replicas on PostgreSQL do; SQLite's write lock (BEGIN
// IMMEDIATE, busy_timeout) takes their claims and result batches in turn. The lag is each
// runner's svc_runner_lag_seconds histogram; the rate is the results stored in the window.

const PROCESSES = 2;
const INTERVAL = 10;
const LAG = 'svc_runner_lag_seconds';

export async function maxRateProcesses(target: string, rows: string[][], figures: Record<string, unknown>, options: { rates: number[]; seconds: number }) {
  const found: Array<{ rate: number; achieved: number; lagP50AtMostMs: number; lagP99AtMostMs: number; cpuPercent: number[]; loadAverage: string }> = [];
  for (const rate of options.rates) {
    const bench = await startBenchDaemon('sqlite');
    const db = bench.daemon.deps.db.kysely;
    try {
      await seed(bench, httpChecks(rate * INTERVAL, INTERVAL, target));
      const runners = Array.from({ length: PROCESSES }, () => startRunnerProcess(bench.dbUrl, { SVC_RUNNER_CONCURRENCY: '1024' }));
      try {
        const urls = await Promise.all(runners.map((runner) => runner.metricsUrl));
        // Two intervals to settle: every check has run twice.
        await sleep(2 * INTERVAL * 1000);
        const count = async () =>
          Number(
            (
              await db
                .selectFrom('check_results')
                .select((eb) => eb.fn.countAll<number>().as('n'))
                .executeTakeFirstOrThrow()
            ).n,
          );
        const before = await Promise.all(urls.map((url) => readHistogram(url, LAG)));
        const cpuBefore = runners.map((runner) => processCpuMs(runner.child.pid!));
        const rowsBefore = await count();
        const start = Date.now();
        await sleep(options.seconds * 1000);
        const rowsAfter = await count();
        const seconds = (Date.now() - start) / 1000;
        const after = await Promise.all(urls.map((url) => readHistogram(url, LAG)));
        const cpuAfter = runners.map((runner) => processCpuMs(runner.child.pid!));
        const lag = histogramBetween(before, after);
        const figure = {
          rate,
          achieved: (rowsAfter - rowsBefore) / seconds,
          lagP50AtMostMs: quantileBound(lag, 0.5) * 1000,
          lagP99AtMostMs: quantileBound(lag, 0.99) * 1000,
          cpuPercent: cpuAfter.map((cpu, i) => (cpu.user + cpu.system - cpuBefore[i].user - cpuBefore[i].system) / 10 / seconds),
          loadAverage: load(),
        };
        found.push(figure);
        rows.push([
          `  ${rate} runs/s asked, ${PROCESSES} runner processes on one SQLite file`,
          `${fixed(figure.achieved)}/s stored, lag p50 ≤ ${fixed(figure.lagP50AtMostMs)} p99 ≤ ${fixed(figure.lagP99AtMostMs)} ms (bucket bounds), CPU ${figure.cpuPercent.map((share) => `${fixed(share)} %`).join(' + ')} (load ${figure.loadAverage})`,
          'lag p99 < 1 s',
        ]);
        if (figure.lagP99AtMostMs > 1000) break;
      } finally {
        await Promise.all(runners.map(stopRunnerProcess));
      }
    } finally {
      await bench.stop();
    }
  }
  const best = found.filter((f) => f.lagP99AtMostMs <= 1000 && f.achieved >= 0.95 * f.rate).pop();
  rows.push([
    `highest sustained rate with lag p99 < 1 s, ${PROCESSES} runner processes on one SQLite file`,
    best ? `${best.rate} runs/s` : 'none of the rates tried',
    '≥ 3,000 runs/s',
  ]);
  figures.maxRateProcesses = { processes: PROCESSES, tried: found, best: best?.rate ?? null, secondsEach: options.seconds };
}
