import { availableParallelism, cpus, loadavg } from 'node:os';

/** What a run was measured on: a fixed workload's time, the cores and the load average. */
export interface Machine {
  /** The best of three runs of `workload`, in milliseconds: lower is a faster machine. */
  workloadMs: number;
  cores: number;
  cpu: string;
  loadAverage: number;
  /** The CPU time, in microseconds, of one wake-up of this process's sleeping thread for a timer (see `measureWakeUp`). */
  wakeUpUs: number;
}

/**
 * A fixed piece of JavaScript of the kind the daemon and the importers do (objects made, written
 * as JSON, read back, compared and sorted): the same on every machine, so its time puts figures
 * taken on different machines side by side. Two development machines with the same CPU name ran
 * the same code 3.3 times apart; the load average alone does not tell that.
 */
export function workload(): number {
  const items = Array.from({ length: 20_000 }, (_, i) => ({ id: i, name: `check-${i % 977}`, interval: (i * 7) % 86_400, tags: [`team=${i % 13}`] }));
  const read = JSON.parse(JSON.stringify(items)) as typeof items;
  read.sort((a, b) => a.name.localeCompare(b.name) || a.interval - b.interval);
  let total = 0;
  for (let i = 0; i < 5_000_000; i++) total = (total + i * read[i % read.length].interval) % 1_000_003;
  return total;
}

/**
 * What waking a sleeping thread costs: the process's CPU time over 100 wake-ups of a 10 ms
 * interval timer whose callback does nothing. The workload's time does not show it, and machines
 * differ in it: where a wake-up costs a quarter of a millisecond, a loaded daemon's wake-ups (its
 * timers, its sockets, its threads' messages) are about a third of its CPU (docs/monitoring.md,
 * "What a wake-up costs").
 */
export async function measureWakeUp(): Promise<number> {
  const wakeUps = 100;
  const before = process.cpuUsage();
  await new Promise<void>((resolve) => {
    let count = 0;
    const timer = setInterval(() => {
      if (++count < wakeUps) return;
      clearInterval(timer);
      resolve();
    }, 10);
  });
  const used = process.cpuUsage(before);
  return Math.round((used.user + used.system) / wakeUps);
}

/** Measures a wake-up (first, while no garbage of the workload is being collected), then times the workload three times (the first also compiles it) and keeps the fastest. */
export async function measureMachine(): Promise<Machine> {
  const wakeUpUs = await measureWakeUp();
  let best = Number.POSITIVE_INFINITY;
  for (let run = 0; run < 3; run++) {
    const started = performance.now();
    workload();
    best = Math.min(best, performance.now() - started);
  }
  return {
    workloadMs: Math.round(best),
    cores: availableParallelism(),
    cpu: cpus()[0]?.model.trim() ?? 'unknown',
    loadAverage: Number(loadavg()[0].toFixed(2)),
    wakeUpUs,
  };
}

/** One line for the head of a benchmark's table. */
export function describeMachine(machine: Machine): string {
  return `machine: fixed workload ${machine.workloadMs} ms (lower is faster), a timer's wake-up ${machine.wakeUpUs} µs of CPU, ${machine.cores} cores (${machine.cpu}), load average ${machine.loadAverage}`;
}
