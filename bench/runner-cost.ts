import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { topFrames } from './cpu-profile.js';
import { startBenchDaemon } from './import-setup.js';
import {
  daemonCommand,
  fixed,
  httpChecks,
  load,
  percentile,
  processCpuMs,
  processMemoryMiB,
  resultsInWindow,
  seed,
  sleep,
  threadCpuMs,
  threadShares,
  type ThreadShare,
} from './runner-setup.js';

// CPU per run of a whole daemon process (`svc daemon`, role `all`, SQLite), measured from
// /proc over a window: first with no checks (what it costs to be running at all), then with
// 1,000 HTTP checks at 20 s against the local target, each run on a new connection, in two
// windows of one process: once every check has run, and after three minutes. The idle cost is
// part of the figure per run. With `--profile` the loaded daemon also runs under
// `node --cpu-prof` and its top frames are printed.

// The workload, which the runner's peer is given too (runner-kuma.ts).
export const CHECKS = 1000;
export const INTERVAL = 20;
/** When the second window of the loaded daemon starts: seconds after the daemon started. */
export const STEADY_AFTER_SECONDS = 180;

export interface DaemonWindow {
  cpuMsPerSecond: number;
  runs: number;
  cpuMsPerRun: number;
  /** The share of the CPU time spent in the kernel (connecting, closing, waiting). */
  systemShare: number;
  peakRssMiB: number;
  jitterP99Ms: number;
  jitterP50Ms: number;
  loadAverage: string;
  /** CPU per second of each kind of thread (the main thread, V8's helpers, libuv's pool, workers). */
  threads: ThreadShare[];
}

/** How the measured daemon runs: under the CPU profiler (its profile's folder), with probe threads. */
interface DaemonSetup {
  profileDir?: string;
  probeThreads: number;
}

function startDaemonProcess(dbUrl: string, { profileDir, probeThreads }: DaemonSetup): ChildProcess {
  const flags = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  return spawn(process.execPath, [...flags, ...daemonCommand()], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      SVC_DB_URL: dbUrl,
      SVC_NODE_ROLE: 'all',
      SVC_LISTEN: '127.0.0.1:0',
      SVC_LOG_LEVEL: 'error',
      SVC_AUTH_JWT_SECRET: 'bench-secret-bench-secret-bench-secret',
      SVC_RUNNER_PROBE_THREADS: String(probeThreads),
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
}

/** Resolves once the daemon has started (its banner on stderr): on a busy machine that can take many seconds. */
function started(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let text = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes('svc daemon listening')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`svc daemon exited with ${code}: ${text.slice(-500)}`)));
  });
}

async function stopDaemonProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

/** Measures one window of `seconds` of a running daemon, from now. */
async function measureWindow(bench: Awaited<ReturnType<typeof startBenchDaemon>>, child: ChildProcess, seconds: number): Promise<DaemonWindow> {
  if (child.exitCode !== null) throw new Error(`svc daemon exited with ${child.exitCode}`);
  const start = Date.now();
  const cpu0 = processCpuMs(child.pid!);
  const threads0 = threadCpuMs(child.pid!);
  await sleep(seconds * 1000);
  const cpu1 = processCpuMs(child.pid!);
  const threads1 = threadCpuMs(child.pid!);
  const end = Date.now();
  const memory = processMemoryMiB(child.pid!);
  // Runs that started in the window (written within a batch delay of it).
  await sleep(1000);
  const results = await resultsInWindow(bench.daemon.deps.db.kysely, start, end);
  const runs = results.length;
  // Between two runs of a check inside the window (a run just after the start may be off the grid: overdue from before it).
  const jitter: number[] = [];
  for (let i = 1; i < results.length; i++) {
    if (results[i].series !== results[i - 1].series) continue;
    jitter.push(Math.abs(Number(results[i].at) - Number(results[i - 1].at) - INTERVAL * 1000));
  }
  jitter.sort((a, b) => a - b);
  const cpuMs = cpu1.user + cpu1.system - cpu0.user - cpu0.system;
  return {
    systemShare: (cpu1.system - cpu0.system) / cpuMs,
    cpuMsPerSecond: cpuMs / ((end - start) / 1000),
    runs,
    cpuMsPerRun: runs > 0 ? cpuMs / runs : NaN,
    peakRssMiB: memory.peak,
    jitterP50Ms: percentile(jitter, 0.5),
    jitterP99Ms: percentile(jitter, 0.99),
    loadAverage: load(),
    threads: threadShares(child.pid!, threads0, threads1, (end - start) / 1000),
  };
}

/**
 * Runs `svc daemon` on `dbUrl` and measures a window of `seconds` starting at each of `startsAt`
 * (seconds after it started, in order), all in the one process.
 */
async function measureDaemon(
  bench: Awaited<ReturnType<typeof startBenchDaemon>>,
  startsAt: readonly number[],
  seconds: number,
  setup: DaemonSetup,
): Promise<DaemonWindow[]> {
  const child = startDaemonProcess(bench.dbUrl, setup);
  try {
    await started(child);
    const begun = Date.now();
    const windows: DaemonWindow[] = [];
    for (const at of startsAt) {
      await sleep(Math.max(0, begun + at * 1000 - Date.now()));
      windows.push(await measureWindow(bench, child, seconds));
    }
    return windows;
  } finally {
    await stopDaemonProcess(child);
  }
}

/** How the bench's label names probe threads: not at all when there are none. */
export const threadsNote = (threads: number): string => (threads > 0 ? `, ${threads} probe thread${threads === 1 ? '' : 's'}` : '');

export async function daemonCost(
  target: string,
  rows: string[][],
  figures: Record<string, unknown>,
  options: { seconds: number; profile: boolean; probeThreads: number },
) {
  const bench = await startBenchDaemon('sqlite');
  try {
    // The idle window starts where the loaded daemon's first does: before it, the daemon's start-up
    // (loading, compiling, its first polls) would count as the cost of being idle.
    const [idle] = await measureDaemon(bench, [INTERVAL + 5], options.seconds, { probeThreads: options.probeThreads });
    rows.push([
      `idle daemon (no checks, SQLite), ${options.seconds} s window from ${INTERVAL + 5} s`,
      `${fixed(idle.cpuMsPerSecond, 2)} ms CPU/s (${fixed(idle.systemShare * 100)} % kernel), peak RSS ${fixed(idle.peakRssMiB)} MiB (load ${idle.loadAverage})`,
      '',
    ]);
    await seed(bench, httpChecks(CHECKS, INTERVAL, target));
    const profileDir = options.profile ? mkdtempSync(join(tmpdir(), 'svc-cpu-prof-')) : undefined;
    // The first window starts once every check has run once; the second once the daemon has run
    // for a few minutes, when V8 has compiled what a run executes (in the first minutes at 50 runs
    // a second its compiler threads are still busy with that).
    const [loaded, steady] = await measureDaemon(bench, [INTERVAL + 5, STEADY_AFTER_SECONDS], options.seconds, {
      profileDir,
      probeThreads: options.probeThreads,
    });
    for (const [window, when] of [
      [loaded, `from ${INTERVAL + 5} s`],
      [steady, `from ${STEADY_AFTER_SECONDS / 60} min`],
    ] as const) {
      rows.push(
        [
          `1,000 HTTP checks at 20 s (SQLite, new connection per run${threadsNote(options.probeThreads)}), ${options.seconds} s window ${when}: CPU per run`,
          `${fixed(window.cpuMsPerRun, 3)} ms (${window.runs} runs, ${fixed(window.cpuMsPerSecond, 1)} ms CPU/s, ${fixed(window.systemShare * 100)} % kernel; load ${window.loadAverage})`,
          '≤ 0.8 ms',
        ],
        ['  peak RSS', `${fixed(window.peakRssMiB)} MiB`, '< 200 MiB'],
        ['  interval jitter p50 / p99', `${fixed(window.jitterP50Ms)} / ${fixed(window.jitterP99Ms)} ms`, 'p99 < 20 ms'],
      );
      for (const { thread, cpuMsPerSecond, sleepsPerSecond } of window.threads.slice(0, 6)) {
        const idleShare = idle.threads.find((t) => t.thread === thread);
        rows.push([
          `  CPU of ${thread}; sleeps (each ends in a wake-up)`,
          `${fixed(cpuMsPerSecond, 1)} ms/s, ${fixed(sleepsPerSecond)}/s (idle daemon: ${fixed(idleShare?.cpuMsPerSecond ?? 0, 1)} ms/s, ${fixed(idleShare?.sleepsPerSecond ?? 0)}/s)`,
          '',
        ]);
      }
    }
    figures.cost = { checks: CHECKS, intervalSeconds: INTERVAL, seconds: options.seconds, steadyAfterSeconds: STEADY_AFTER_SECONDS, idle, loaded, steady };
    if (profileDir) {
      const frames = topFrames(profileDir);
      process.stdout.write(`\ntop frames by self time of the loaded daemon (profiles in ${profileDir}):\n`);
      for (const { frame, percent } of frames) process.stdout.write(`  ${fixed(percent, 1).padStart(5)} %  ${frame}\n`);
      (figures.cost as Record<string, unknown>).topFrames = frames;
    }
  } finally {
    await bench.stop();
  }
}
