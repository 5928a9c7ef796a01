import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { upsertChecks } from '../daemon/checks/check-store.js';
import { ensureStates } from '../daemon/runner/check-states.js';
import { validateCheck, type CheckDefinition } from '../checks/index.js';
import type { Executor } from '../daemon/db/executor.js';
import type { BenchDaemon } from './import-setup.js';

// What the runner's benchmarks share: the local target, the checks they seed, and the
// figures read from /proc about a daemon in a process of its own.

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export const percentile = (sorted: number[], q: number) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]);
export const fixed = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : '-');
/** The 1-minute load average, printed beside every figure: the machine is shared. */
export const load = () => loadavg()[0].toFixed(2);

/** The CLI's entry point, which starts the daemons the benchmarks measure. */
const SVC_BIN = fileURLToPath(new URL('../../bin/svc', import.meta.url));

/**
 * How a benchmark starts `svc daemon` in a process of its own: node with the flags of bin/svc's
 * first line (`#!/usr/bin/env -S node <flags>`), as an installed `svc daemon` runs.
 */
export function daemonCommand(): string[] {
  const shebang = readFileSync(SVC_BIN, 'utf8').split('\n', 1)[0];
  const flags = /^#!\/usr\/bin\/env -S node(?<flags>( --\S+)*)$/.exec(shebang)?.groups?.flags;
  if (flags === undefined) throw new Error(`bin/svc does not start with "#!/usr/bin/env -S node [flags]": ${shebang}`);
  return [...flags.split(' ').filter(Boolean), SVC_BIN, 'daemon'];
}

/** A tiny HTTP server in its own process: answers 200 "ok" to everything. */
export async function startTarget(): Promise<{ url: string; child: ChildProcess }> {
  const code = `const s=require('node:http').createServer((q,r)=>r.end('ok'));s.keepAliveTimeout=1000;s.listen(0,'127.0.0.1',()=>console.log(s.address().port));`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve) => child.stdout!.once('data', (chunk: Buffer) => resolve(chunk.toString().trim())));
  return { url: `http://127.0.0.1:${port}`, child };
}

export function httpChecks(count: number, intervalSeconds: number, target: string): CheckDefinition[] {
  return Array.from({ length: count }, (_, i) => {
    const result = validateCheck({
      slug: `c${i}`,
      name: `Check ${i}`,
      type: 'http',
      intervalSeconds,
      target: `${target}/c${i}`,
      thresholds: { timeoutMs: 5000 },
    });
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    return result.check;
  });
}

export async function seed(bench: BenchDaemon, checks: CheckDefinition[]): Promise<void> {
  const db = bench.daemon.deps.db.kysely;
  for (let i = 0; i < checks.length; i += 5000) {
    await db.transaction().execute((trx) => upsertChecks(trx, bench.orgUid, checks.slice(i, i + 5000), { now: new Date() }));
  }
  await ensureStates(db, Date.now());
}

/** The results of runs that started in [start, end), by check and then time: the runs a bench window saw. */
export function resultsInWindow(db: Executor, start: number, end: number): Promise<Array<{ series: number; at: number }>> {
  return db.selectFrom('check_results').select(['series', 'at']).where('at', '>=', start).where('at', '<', end).orderBy('series').orderBy('at').execute();
}

const CLOCK_TICKS_PER_SECOND = 100;

/** CPU time (all threads) a process has used so far, in ms, in user space and in the kernel, from /proc/<pid>/stat. */
export function processCpuMs(pid: number): { user: number; system: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces: count fields after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { user: (Number(fields[11]) * 1000) / CLOCK_TICKS_PER_SECOND, system: (Number(fields[12]) * 1000) / CLOCK_TICKS_PER_SECOND };
}

/** What a thread has spent so far: CPU time in ms (user and kernel), and how often it slept (and woke up again). */
export interface ThreadSpent {
  name: string;
  ms: number;
  sleeps: number;
}

/**
 * CPU time and sleeps of each thread of a process so far, by thread id, with the thread's name
 * (V8's and libuv's helpers are named; the main thread and workers carry the program's name),
 * from /proc/<pid>/task/<tid>/stat and the `voluntary_ctxt_switches` of its status: a thread
 * that waits (for a timer, a socket, a message) gives up the CPU and is woken again, and on some
 * machines each wake-up costs a good part of a run's own work (docs/monitoring.md).
 */
export function threadCpuMs(pid: number): Map<number, ThreadSpent> {
  const threads = new Map<number, ThreadSpent>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const status = readFileSync(`/proc/${pid}/task/${tid}/status`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      threads.set(Number(tid), {
        name,
        ms: ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND,
        sleeps: Number(/^voluntary_ctxt_switches:\s+(\d+)/m.exec(status)?.[1] ?? 0),
      });
    } catch {
      // The thread ended meanwhile.
    }
  }
  return threads;
}

/** What one kind of thread spent a second between two readings of `threadCpuMs`. */
export interface ThreadShare {
  thread: string;
  cpuMsPerSecond: number;
  sleepsPerSecond: number;
}

/** CPU and sleeps per second of each kind of thread between two readings of `threadCpuMs` (the main thread by its id), most CPU first. */
export function threadShares(pid: number, before: Map<number, ThreadSpent>, after: Map<number, ThreadSpent>, seconds: number): ThreadShare[] {
  const byName = new Map<string, ThreadShare>();
  for (const [tid, { name, ms, sleeps }] of after) {
    // Node names none of its helper threads: they are told apart from the main thread only.
    const thread = tid === pid ? 'main thread' : name === 'node' ? 'other threads (V8 helpers, libuv pool, workers)' : name;
    const share = byName.get(thread) ?? { thread, cpuMsPerSecond: 0, sleepsPerSecond: 0 };
    share.cpuMsPerSecond += (ms - (before.get(tid)?.ms ?? 0)) / seconds;
    share.sleepsPerSecond += (sleeps - (before.get(tid)?.sleeps ?? 0)) / seconds;
    byName.set(thread, share);
  }
  return [...byName.values()].sort((a, b) => b.cpuMsPerSecond - a.cpuMsPerSecond);
}

/** Resident memory of a process now and at its peak, in MiB, from /proc/<pid>/status. */
export function processMemoryMiB(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024 };
}
