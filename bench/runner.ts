import type { AppDeps } from '../daemon/deps.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { statSync } from 'node:fs';
import { sql } from 'kysely';
import { systemClock } from '../daemon/clock.js';
import type { Db } from '../daemon/db/connect.js';
import { createLogger } from '../daemon/log.js';
import { uptimeOf } from '../daemon/runner/result-queries.js';
import { Runner } from '../daemon/runner/runner.js';
import { ProbeThreads } from '../daemon/runner/probe-threads.js';
import { slotOffsetMs } from '../daemon/runner/schedule.js';
import { BUCKET_COLUMNS } from '../daemon/runner/latency-histogram.js';
import { createEgressPolicy } from '../probes/egress.js';
import { postgresProblem, startBenchDaemon, BENCH_SECRET_KEY } from './import-setup.js';
import { coordinatorCeiling } from './coordinator.js';
import { daemonCost, threadsNote } from './runner-cost.js';
import { kumaCost } from './runner-kuma.js';
import { maxRateProcesses } from './runner-processes-rate.js';
import { daemonCommand, fixed, httpChecks, percentile, resultsInWindow, seed, sleep, startTarget } from './runner-setup.js';
import { printTable } from './table.js';
import { flag } from './flags.js';
import { SETTINGS } from '../daemon/config/settings.js';

// `npm run bench -- runner [--quick] [--seconds=N] [--profile] [--only=cost,kuma,steady,rate,processes,replicas,uptime,coordinator] [--checks=N] [--rates=N,N] [--probe-threads=N] [--kuma-dir=PATH]`: the monitoring engine
// against a cheap local HTTP target (a separate process, so its CPU is not counted as the runner's).
//   0. CPU per run of a whole `svc daemon` process, 1,000 HTTP checks at 20 s, and idle (runner-cost.ts);
//      then the same checks in Uptime Kuma 2.5.3, its peer, when a prepared tree is given (runner-kuma.ts).
//   1. 10,000 HTTP checks at 60 s on SQLite: schedule lag, CPU share, RSS, bytes per result.
//   2. The highest rate (runs a second) sustained with lag p99 under 1 s, on SQLite, after a first
//      interval of every check (its lag given apart); then the
//      same with two runner processes on one SQLite file (runner-processes-rate.ts).
//   3. Two runner processes on PostgreSQL, 2,000 checks at 10 s: duplicate and missed runs,
//      then one killed with SIGKILL: how long until its checks run again.
//   4. 90-day uptime of 100 checks from the hourly aggregates.
//   5. The coordinator's ceiling: 1, 2 and 4 dry-run runners on one PostgreSQL (coordinator.ts).

const QUICK = flag('quick') !== undefined;
const SECONDS = Number(flag('seconds') ?? (QUICK ? 30 : 120));
/** `--only=cost,kuma,steady,rate,processes,replicas,uptime,coordinator` runs some parts only. */
const ONLY = flag('only')?.split(',');
const wanted = (part: string) => !ONLY || ONLY.includes(part);
/** `--rates=2000,3000`: the rates `rate` tries (runs a second), instead of its ladder. */
const RATES = flag('rates')?.split(',').map(Number);
/** `--probe-threads=N`: HTTP runs on N probe threads beside the runner's thread (SVC_RUNNER_PROBE_THREADS; the daemon's default when absent), in every part. */
const PROBE_THREADS = Number(flag('probe-threads') ?? SETTINGS.runnerProbeThreads.default);
/** The sustained rate is measured after one interval of its checks (10 s): every check has run once, the code is compiled. */
const RATE_WARMUP_SECONDS = 10;

/**
 * Runs an in-process runner (the system clock) for `seconds`: lag, CPU share, peak RSS. With
 * `warmupSeconds`, it runs that long first, and the runs, lag and CPU are those of the `seconds`
 * after (the daemon's start-up: threads starting, code compiling, every check's first state
 * change); the lag of the warm-up is given apart (`warmupLagP99`).
 */
async function runFor(deps: AppDeps, seconds: number, concurrency = 256, warmupSeconds = 0) {
  const db = deps.db;
  const egressOptions = { denyPrivate: false };
  const probeThreads = PROBE_THREADS > 0 ? new ProbeThreads({ threads: PROBE_THREADS, egress: egressOptions }) : undefined;
  probeThreads?.start();
  const runner = new Runner({
    db,
    keyring: deps.keyring,
    metrics: deps.metrics,
    clock: systemClock,
    logger: createLogger('warn'),
    egress: createEgressPolicy(egressOptions),
    probeCaches: deps.caches.probes,
    probeThreads,
    config: {
      role: 'runner',
      concurrency,
      browserConcurrency: 2,
      orgSharePercent: 100,
      heartbeatPingIntervalSeconds: 1,
      denyPrivate: false,
      leaseSeconds: 30,
      resultsRetentionSeconds: 7 * 86400,
      expressionTimeoutMs: 1000,
      expressionWorkers: 2,
      probeThreads: PROBE_THREADS,
    },
  });
  let rss = 0;
  const sampler = setInterval(() => (rss = Math.max(rss, process.memoryUsage().rss)), 500);
  let cpu0 = process.cpuUsage();
  let t0 = performance.now();
  runner.start();
  let warm = 0;
  if (warmupSeconds > 0) {
    await sleep(warmupSeconds * 1000);
    warm = runner.stats().started;
    cpu0 = process.cpuUsage();
    t0 = performance.now();
  }
  await sleep(seconds * 1000);
  const runs = runner.stats().started - warm;
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  await runner.stop();
  await probeThreads?.close();
  clearInterval(sampler);
  // One lag sample per run started, in order: the last `runs` are the measured window's.
  const all = runner.stats().lagMs;
  const lag = all.slice(all.length - runs).sort((a, b) => a - b);
  const warmup = all.slice(0, all.length - runs).sort((a, b) => a - b);
  return {
    runs,
    lagP50: percentile(lag, 0.5),
    lagP99: percentile(lag, 0.99),
    warmupLagP99: warmup.length > 0 ? percentile(warmup, 0.99) : undefined,
    cpuShare: (cpu.user + cpu.system) / 1000 / wall,
    rssMiB: rss / 2 ** 20,
  };
}

async function bytesPerResult(db: Db, fileBefore: number, path: string): Promise<{ perResult: number; results: number; how: string }> {
  const { n } = await db.kysely
    .selectFrom('check_results')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  try {
    const { rows } = await sql<{ bytes: number }>`select sum(pgsize) as bytes from dbstat where name = 'check_results'`.execute(db.kysely);
    return { perResult: Number(rows[0].bytes) / Number(n), results: Number(n), how: 'dbstat pages of check_results' };
  } catch {
    await sql`pragma wal_checkpoint(truncate)`.execute(db.kysely);
    return { perResult: (statSync(path).size - fileBefore) / Number(n), results: Number(n), how: 'file growth' };
  }
}

async function steadySqlite(target: string, rows: string[][], figures: Record<string, unknown>) {
  const bench = await startBenchDaemon('sqlite');
  try {
    await seed(bench, httpChecks(10_000, 60, target));
    const path = bench.dbUrl.slice('sqlite:'.length);
    const before = statSync(path).size;
    const run = await runFor(bench.daemon.deps, SECONDS);
    const bytes = await bytesPerResult(bench.daemon.deps.db, before, path);
    rows.push(
      ['10k HTTP checks at 60 s (SQLite): runs', `${run.runs} in ${SECONDS} s (${fixed(run.runs / SECONDS)}/s)`, '167/s'],
      ['  schedule lag p50 / p99', `${fixed(run.lagP50)} / ${fixed(run.lagP99)} ms`, 'p99 < 500 ms'],
      ['  CPU (share of one core, whole process)', `${fixed(run.cpuShare * 100, 1)} %`, '< 15 %'],
      ['  peak RSS', `${fixed(run.rssMiB)} MiB`, '< 400 MiB'],
      [`  bytes per stored result (${bytes.how})`, fixed(bytes.perResult, 1), '≤ 64 B'],
    );
    figures.steady = { ...run, bytesPerResult: bytes.perResult, results: bytes.results, seconds: SECONDS };
  } finally {
    await bench.stop();
  }
}

async function maxRate(target: string, rows: string[][], figures: Record<string, unknown>) {
  const rates = RATES ?? (QUICK ? [500, 1000, 2000] : [500, 1000, 1500, 2000, 3000]);
  const seconds = QUICK ? 15 : 30;
  const found: Array<{ rate: number; lagP99: number; warmupLagP99?: number; achieved: number }> = [];
  for (const rate of rates) {
    const bench = await startBenchDaemon('sqlite');
    try {
      await seed(bench, httpChecks(rate * 10, 10, target));
      // Sustained: the window after the runner's first interval of every check (start-up, given apart).
      const run = await runFor(bench.daemon.deps, seconds, 1024, RATE_WARMUP_SECONDS);
      found.push({ rate, lagP99: run.lagP99, warmupLagP99: run.warmupLagP99, achieved: run.runs / seconds });
      rows.push([
        `  ${rate} runs/s asked (checks at 10 s${threadsNote(PROBE_THREADS)})`,
        `${fixed(run.runs / seconds)}/s, lag p50 ${fixed(run.lagP50)} p99 ${fixed(run.lagP99)} ms, CPU ${fixed(run.cpuShare * 100)} %; ` +
          `first ${RATE_WARMUP_SECONDS} s: lag p99 ${fixed(run.warmupLagP99 ?? 0)} ms`,
        'lag p99 < 1 s',
      ]);
      if (run.lagP99 >= 1000) break;
    } finally {
      await bench.stop();
    }
  }
  const best = found.filter((f) => f.lagP99 < 1000).pop();
  rows.push(['highest sustained rate with lag p99 < 1 s (SQLite)', best ? `${best.rate} runs/s` : 'none of the rates tried', '≥ 3,000 runs/s']);
  figures.maxRate = { tried: found, best: best?.rate ?? null, secondsEach: seconds, warmupSeconds: RATE_WARMUP_SECONDS, concurrency: 1024 };
}

function startRunnerProcess(dbUrl: string): ChildProcess {
  return spawn(process.execPath, daemonCommand(), {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      SVC_DB_URL: dbUrl,
      SVC_NODE_ROLE: 'runner',
      SVC_RUNNER_LEASE: '5s',
      SVC_LOG_LEVEL: 'error',
      SVC_AUTH_JWT_SECRET: 'bench-secret-bench-secret-bench-secret',
      SVC_SECRET_KEY: BENCH_SECRET_KEY,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function replicasPostgres(target: string, rows: string[][], figures: Record<string, unknown>) {
  const problem = await postgresProblem();
  if (problem) {
    rows.push(['two replicas on PostgreSQL', `skipped: ${problem}`, '']);
    return;
  }
  const INTERVAL = 10;
  const bench = await startBenchDaemon('postgres');
  const db = bench.daemon.deps.db.kysely;
  const replicas: ChildProcess[] = [];
  try {
    await seed(bench, httpChecks(2000, INTERVAL, target));
    replicas.push(startRunnerProcess(bench.dbUrl), startRunnerProcess(bench.dbUrl));
    const start = Date.now();
    await sleep(SECONDS * 1000);
    const end = Date.now();
    const states = await db.selectFrom('check_states').select(['series', 'check_uid']).execute();
    const results = await resultsInWindow(db, start, end);
    const bySeries = new Map<number, number[]>();
    for (const r of results) bySeries.set(Number(r.series), [...(bySeries.get(Number(r.series)) ?? []), Number(r.at)]);
    let duplicates = 0;
    let missed = 0;
    // Expected: every slot due between start + 3 s (start-up) and end - 2 s (runs still being written).
    for (const state of states) {
      const offset = slotOffsetMs(state.check_uid, INTERVAL);
      const first = Math.ceil((start + 3000 - offset) / (INTERVAL * 1000));
      const last = Math.floor((end - 2000 - offset) / (INTERVAL * 1000));
      const times = bySeries.get(Number(state.series)) ?? [];
      for (let i = 1; i < times.length; i++) if (times[i] - times[i - 1] < (INTERVAL * 1000) / 2) duplicates++;
      for (let slot = first; slot <= last; slot++) {
        const due = slot * INTERVAL * 1000 + offset;
        if (!times.some((at) => at >= due - 50 && at < due + INTERVAL * 500)) missed++;
      }
    }
    rows.push(
      [
        `two replicas, 2,000 checks at ${INTERVAL} s, ${SECONDS} s (PostgreSQL): results`,
        String(results.length),
        `${fixed((2000 * SECONDS) / INTERVAL)} expected`,
      ],
      ['  duplicate runs', String(duplicates), '0'],
      ['  missed runs', String(missed), '0'],
    );
    // Kill one replica without draining; see how long its checks wait before running again.
    const killedAt = Date.now();
    replicas[0].kill('SIGKILL');
    await sleep((INTERVAL + 5 + 5 + 5) * 1000);
    const after = await db
      .selectFrom('check_results')
      .select(['series', 'at'])
      .where('at', '>=', killedAt - INTERVAL * 1000)
      .orderBy('series')
      .orderBy('at')
      .execute();
    const gaps = new Map<number, number>();
    const lastBefore = new Map<number, number>();
    for (const r of after) {
      const series = Number(r.series);
      const at = Number(r.at);
      if (at < killedAt) lastBefore.set(series, at);
      else if (!gaps.has(series)) gaps.set(series, at - (lastBefore.get(series) ?? killedAt - INTERVAL * 1000));
    }
    const resumed = gaps.size;
    const worst = Math.max(...gaps.values());
    const late = [...gaps.values()].filter((gap) => gap > INTERVAL * 1000 + 1000).length;
    rows.push(
      ['  after kill -9 of one: checks running again', `${resumed} of ${states.length}`, `all within ${INTERVAL} s + timeout 5 s + lease 5 s`],
      ['  longest gap around the kill / checks delayed past one interval', `${fixed(worst / 1000, 1)} s / ${late}`, `≤ ${INTERVAL + 10} s`],
    );
    figures.replicas = {
      seconds: SECONDS,
      results: results.length,
      duplicates,
      missed,
      afterKill: { resumed, of: states.length, worstGapMs: worst, delayed: late },
    };
  } finally {
    for (const child of replicas) if (child.exitCode === null) child.kill('SIGKILL');
    await bench.stop();
  }
}

async function uptimeQuery(rows: string[][], figures: Record<string, unknown>) {
  const out: Record<string, unknown> = {};
  for (const kind of ['sqlite', 'postgres'] as const) {
    if (kind === 'postgres' && (await postgresProblem())) continue;
    const bench = await startBenchDaemon(kind);
    try {
      await seed(bench, httpChecks(100, 60, 'http://127.0.0.1:9'));
      const db = bench.daemon.deps.db.kysely;
      const series = (await db.selectFrom('check_states').select('series').execute()).map((row) => Number(row.series));
      const lastHour = Math.floor(Date.now() / 3_600_000);
      for (const s of series) {
        const hours = Array.from({ length: 2160 }, (_, i) => ({
          series: s,
          hour: lastHour - i,
          runs: 60,
          down_runs: i % 50 === 0 ? 3 : 0,
          degraded_runs: 0,
          ...Object.fromEntries(BUCKET_COLUMNS.map((column, b) => [column, b === 2 ? 57 : 0])),
        }));
        for (let i = 0; i < hours.length; i += 500)
          await db
            .insertInto('check_hourly')
            .values(hours.slice(i, i + 500) as any)
            .execute();
        // The daily aggregates the writer keeps beside the hourly ones: the sums of their hours.
        const days = new Map<number, Record<string, number>>();
        for (const { hour, series: _s, ...counts } of hours) {
          const day = days.get(Math.floor(hour / 24)) ?? {};
          for (const [key, value] of Object.entries(counts)) day[key] = (day[key] ?? 0) + (value as number);
          days.set(Math.floor(hour / 24), day);
        }
        const dayRows = [...days].map(([day, counts]) => ({ series: s, day, ...counts }));
        await db
          .insertInto('check_daily')
          .values(dayRows as any)
          .execute();
      }
      const times: number[] = [];
      for (let i = 0; i < 30; i++) {
        const t0 = performance.now();
        await uptimeOf(db, series, '90d', Date.now());
        times.push(performance.now() - t0);
      }
      times.sort((a, b) => a - b);
      rows.push([
        `90-day uptime of 100 checks (${kind}) p50 / p95`,
        `${fixed(percentile(times, 0.5), 1)} / ${fixed(percentile(times, 0.95), 1)} ms`,
        '< 20 ms',
      ]);
      out[kind] = { p50Ms: percentile(times, 0.5), p95Ms: percentile(times, 0.95) };
    } finally {
      await bench.stop();
    }
  }
  figures.uptime90d = out;
}

/** The runner benchmark; `--quick` and `--seconds=N` shorten it. */
export async function run(): Promise<Record<string, unknown>> {
  const target = await startTarget();
  const rows: string[][] = [];
  const figures: Record<string, unknown> = { quick: QUICK };
  try {
    if (wanted('cost'))
      await daemonCost(target.url, rows, figures, {
        seconds: Number(flag('seconds') ?? (QUICK ? 30 : 60)),
        profile: flag('profile') !== undefined,
        probeThreads: PROBE_THREADS,
      });
    if (wanted('kuma'))
      await kumaCost(target.url, rows, figures, { seconds: Number(flag('seconds') ?? (QUICK ? 30 : 60)), kumaDir: flag('kuma-dir') ?? process.env.KUMA_DIR });
    if (wanted('steady')) await steadySqlite(target.url, rows, figures);
    if (wanted('rate')) await maxRate(target.url, rows, figures);
    if (wanted('processes'))
      await maxRateProcesses(target.url, rows, figures, { rates: QUICK ? [2000, 3000] : [2000, 3000, 3500, 4000], seconds: QUICK ? 15 : 30 });
    if (wanted('replicas')) await replicasPostgres(target.url, rows, figures);
    if (wanted('uptime')) await uptimeQuery(rows, figures);
    if (wanted('coordinator'))
      await coordinatorCeiling(rows, figures, { seconds: QUICK ? 15 : 30, checks: Number(flag('checks') ?? (QUICK ? 20_000 : 40_000)) });
  } finally {
    target.child.kill();
  }
  printTable(rows);
  return figures;
}
