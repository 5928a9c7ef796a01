import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { startKuma, type Kuma } from './parity/kuma.js';
import { CHECKS as MONITORS, INTERVAL, STEADY_AFTER_SECONDS } from './runner-cost.js';
import { fixed, load, percentile, processCpuMs, processMemoryMiB, sleep } from './runner-setup.js';

// The runner's peer, measured as the runner is (runner-cost.ts): Uptime Kuma 2.5.3 from a
// prepared source tree (KUMA_DIR or --kuma-dir=, docs/import.md "Differential run against Uptime
// Kuma"), its own process on SQLite, 1,000 HTTP monitors at 20 s against the same local target,
// each beat on a new connection as Kuma makes it (server/model/monitor.js: a new http.Agent per
// beat, no keep-alive). Its CPU from /proc over the same windows (counted from the last monitor
// added), its beats and their intervals from its database.

export interface KumaWindow {
  cpuMsPerSecond: number;
  beats: number;
  cpuMsPerBeat: number;
  systemShare: number;
  peakRssMiB: number;
  jitterP50Ms: number;
  jitterP99Ms: number;
  loadAverage: string;
}

/** Kuma's heartbeat times: UTC, `YYYY-MM-DD HH:mm:ss.SSS` (redbean-node's isoDateTimeMillis). */
const kumaTime = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 23);
const fromKumaTime = (text: string) => Date.parse(`${text.replace(' ', 'T')}Z`);

/** Adds the monitors over socket.io as the web UI does, a few at a time. */
async function addMonitors(kuma: Kuma, target: string): Promise<void> {
  let next = 0;
  const adder = async () => {
    while (next < MONITORS) {
      const i = next++;
      // EditMonitor.vue sets the timeout to 80 % of the interval.
      await kuma.add({ name: `Check ${i}`, url: `${target}/c${i}`, interval: INTERVAL, retryInterval: INTERVAL, timeout: INTERVAL * 0.8 });
    }
  };
  await Promise.all(Array.from({ length: 8 }, adder));
}

/** The beats of each window and their intervals, from Kuma's database once it has stopped. */
function beatsIn(dataDir: string, windows: ReadonlyArray<{ start: number; end: number }>): Array<{ beats: number; jitter: number[] }> {
  const db = new Database(join(dataDir, 'kuma.db'), { readonly: true });
  try {
    const read = db.prepare<[string, string], { monitor_id: number; time: string }>(
      'select monitor_id, time from heartbeat where time >= ? and time < ? order by monitor_id, time',
    );
    return windows.map(({ start, end }) => {
      const rows = read.all(kumaTime(start), kumaTime(end));
      const jitter: number[] = [];
      for (let i = 1; i < rows.length; i++) {
        if (rows[i].monitor_id !== rows[i - 1].monitor_id) continue;
        jitter.push(Math.abs(fromKumaTime(rows[i].time) - fromKumaTime(rows[i - 1].time) - INTERVAL * 1000));
      }
      return { beats: rows.length, jitter: jitter.sort((a, b) => a - b) };
    });
  } finally {
    db.close();
  }
}

/**
 * Uptime Kuma with 1,000 HTTP monitors at 20 s: CPU per beat over `seconds` from 25 s after the
 * last monitor was added and from 3 minutes, beside the runner's figure when the cost part ran
 * in the same run. Nothing is measured without a prepared tree.
 */
export async function kumaCost(
  target: string,
  rows: string[][],
  figures: Record<string, unknown>,
  options: { seconds: number; kumaDir?: string },
): Promise<void> {
  if (!options.kumaDir) {
    rows.push(['Uptime Kuma 2.5.3, the same checks', 'not measured: set KUMA_DIR (or --kuma-dir=) to a prepared tree (docs/import.md)', '']);
    return;
  }
  const root = mkdtempSync(join(tmpdir(), 'svc-bench-kuma-'));
  const measured: Array<{ start: number; end: number; cpuMs: number; systemMs: number; peakRssMiB: number; loadAverage: string }> = [];
  let counted: Array<{ beats: number; jitter: number[] }>;
  try {
    const kuma = await startKuma(options.kumaDir, root, (line) => process.stdout.write(`${line}\n`));
    try {
      const adding = Date.now();
      await addMonitors(kuma, target);
      process.stdout.write(`added ${MONITORS} monitors to Uptime Kuma in ${fixed((Date.now() - adding) / 1000, 1)} s\n`);
      // Nobody watches its dashboard: Kuma sends its beats to no open page.
      kuma.socket.close();
      const begun = Date.now();
      for (const at of [INTERVAL + 5, STEADY_AFTER_SECONDS]) {
        await sleep(Math.max(0, begun + at * 1000 - Date.now()));
        const start = Date.now();
        const cpu0 = processCpuMs(kuma.pid);
        await sleep(options.seconds * 1000);
        const cpu1 = processCpuMs(kuma.pid);
        const end = Date.now();
        measured.push({
          start,
          end,
          cpuMs: cpu1.user + cpu1.system - cpu0.user - cpu0.system,
          systemMs: cpu1.system - cpu0.system,
          peakRssMiB: processMemoryMiB(kuma.pid).peak,
          loadAverage: load(),
        });
      }
    } finally {
      await kuma.stop();
    }
    counted = beatsIn(kuma.dataDir, measured);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  const windows: KumaWindow[] = measured.map((window, i) => ({
    cpuMsPerSecond: window.cpuMs / ((window.end - window.start) / 1000),
    beats: counted[i].beats,
    cpuMsPerBeat: window.cpuMs / counted[i].beats,
    systemShare: window.systemMs / window.cpuMs,
    peakRssMiB: window.peakRssMiB,
    jitterP50Ms: percentile(counted[i].jitter, 0.5),
    jitterP99Ms: percentile(counted[i].jitter, 0.99),
    loadAverage: window.loadAverage,
  }));
  const svc = figures.cost as { loaded?: { cpuMsPerRun: number }; steady?: { cpuMsPerRun: number } } | undefined;
  for (const [window, when, ours] of [
    [windows[0], `from ${INTERVAL + 5} s`, svc?.loaded],
    [windows[1], `from ${STEADY_AFTER_SECONDS / 60} min`, svc?.steady],
  ] as const) {
    rows.push(
      [
        `Uptime Kuma 2.5.3, 1,000 HTTP monitors at 20 s (SQLite, new connection per beat), ${options.seconds} s window ${when}: CPU per beat`,
        `${fixed(window.cpuMsPerBeat, 3)} ms (${window.beats} beats, ${fixed(window.cpuMsPerSecond, 1)} ms CPU/s, ${fixed(window.systemShare * 100)} % kernel; load ${window.loadAverage})`,
        '',
      ],
      ['  peak RSS; interval jitter p50 / p99', `${fixed(window.peakRssMiB)} MiB; ${fixed(window.jitterP50Ms)} / ${fixed(window.jitterP99Ms)} ms`, ''],
    );
    if (ours) rows.push([`  its CPU per beat over svc's per run in this run (${when})`, `${fixed(window.cpuMsPerBeat / ours.cpuMsPerRun, 2)}x`, '']);
  }
  figures.kuma = {
    monitors: MONITORS,
    intervalSeconds: INTERVAL,
    seconds: options.seconds,
    steadyAfterSeconds: STEADY_AFTER_SECONDS,
    loaded: windows[0],
    steady: windows[1],
  };
}
