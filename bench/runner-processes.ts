import { spawn, type ChildProcess } from 'node:child_process';
import { daemonCommand } from './runner-setup.js';

// Runner processes (`svc daemon` with SVC_NODE_ROLE=runner) for the benches that measure more
// than one, and the histograms read from their metrics addresses.

export interface RunnerProcess {
  child: ChildProcess;
  /** The runner's Prometheus address, once it has started. */
  metricsUrl: Promise<string>;
}

/**
 * Starts a runner on `dbUrl`; `env` adds settings (SVC_RUNNER_DRY_RUN, SVC_RUNNER_CONCURRENCY,
 * and on PostgreSQL SVC_SECRET_KEY: SQLite finds its key beside the database file).
 */
export function startRunnerProcess(dbUrl: string, env: Record<string, string> = {}): RunnerProcess {
  const child = spawn(process.execPath, daemonCommand(), {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      SVC_DB_URL: dbUrl,
      SVC_NODE_ROLE: 'runner',
      SVC_METRICS_LISTEN: '127.0.0.1:0',
      SVC_LOG_LEVEL: 'error',
      SVC_AUTH_JWT_SECRET: 'bench-secret-bench-secret-bench-secret',
      ...env,
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
      if (url && !chunk.toString().includes('Prometheus metrics at') && !chunk.toString().includes('SIGTERM')) process.stderr.write(chunk);
    });
    child.once('exit', (code) => reject(new Error(`runner exited with ${code}: ${text.slice(-500)}`)));
  });
  return { child, metricsUrl };
}

export async function stopRunnerProcess(runner: RunnerProcess): Promise<void> {
  if (runner.child.exitCode !== null) return;
  const exited = new Promise((resolve) => runner.child.once('exit', resolve));
  runner.child.kill('SIGTERM');
  const timer = setTimeout(() => runner.child.kill('SIGKILL'), 20_000);
  await exited;
  clearTimeout(timer);
}

export interface HistogramReading {
  count: number;
  sum: number;
  /** Cumulative counts by upper bound. */
  buckets: Map<number, number>;
}

/** The histogram `name` (without labels) of one runner's metrics. */
export async function readHistogram(metricsUrl: string, name: string): Promise<HistogramReading> {
  const text = await (await fetch(metricsUrl)).text();
  const value = (series: string) => Number(new RegExp(`^${series} (\\S+)$`, 'm').exec(text)?.[1] ?? 0);
  const buckets = new Map<number, number>();
  for (const [, le, count] of text.matchAll(new RegExp(`^${name}_bucket\\{le="([^"]+)"\\} (\\S+)$`, 'gm'))) {
    buckets.set(le === '+Inf' ? Infinity : Number(le), Number(count));
  }
  return { count: value(`${name}_count`), sum: value(`${name}_sum`), buckets };
}

/** The observations between readings `before` and `after` of several processes, merged. */
export function histogramBetween(before: readonly HistogramReading[], after: readonly HistogramReading[]): HistogramReading {
  const buckets = new Map<number, number>();
  let count = 0;
  let sum = 0;
  after.forEach((reading, i) => {
    count += reading.count - before[i].count;
    sum += reading.sum - before[i].sum;
    for (const [le, total] of reading.buckets) buckets.set(le, (buckets.get(le) ?? 0) + total - (before[i].buckets.get(le) ?? 0));
  });
  return { count, sum, buckets };
}

/** The smallest bucket bound under which a share `q` of the observations fell. */
export function quantileBound(histogram: HistogramReading, q: number): number {
  for (const [le, total] of [...histogram.buckets].sort((a, b) => a[0] - b[0])) {
    if (total >= q * histogram.count) return le;
  }
  return Infinity;
}
