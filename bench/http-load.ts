import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';

/** One load run: `connections` clients repeat one GET until `seconds` pass or `maxRequests` are sent. */
export interface LoadSpec {
  origin: string;
  path: string;
  headers: Record<string, string>;
  connections: number;
  seconds: number;
  maxRequests: number;
}

export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  requestsPerSecond: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
}

async function generate(spec: LoadSpec): Promise<LoadResult> {
  const pool = new Pool(spec.origin, { connections: spec.connections, pipelining: 1 });
  const latencies: number[] = [];
  let sent = 0;
  let errors = 0;
  const started = performance.now();
  const deadline = started + spec.seconds * 1000;
  const client = async () => {
    while (performance.now() < deadline && sent < spec.maxRequests) {
      sent++;
      const t0 = performance.now();
      try {
        const res = await pool.request({ origin: spec.origin, path: spec.path, method: 'GET', headers: spec.headers });
        await res.body.dump();
        if (res.statusCode !== 200) errors++;
      } catch {
        errors++;
      }
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: spec.connections }, client));
  const seconds = (performance.now() - started) / 1000;
  await pool.close();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { requests: sent, errors, seconds, requestsPerSecond: sent / seconds, p50Ms: at(0.5), p95Ms: at(0.95), p99Ms: at(0.99) };
}

/**
 * Runs the load in a child process, so the server under test has this process to itself: its
 * event loop is not shared with the client, and `process.cpuUsage()` here counts only the
 * server's work.
 */
export function runLoad(spec: LoadSpec): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), ['--load-client'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.once('message', (result) => {
      child.kill();
      resolve(result as LoadResult);
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code) reject(new Error(`the load client exited with ${code}`));
    });
    child.send(spec);
  });
}

if (process.argv.includes('--load-client') && process.send) {
  process.once('message', (spec) => {
    void generate(spec as LoadSpec).then((result) => process.send!(result));
  });
}

/** A load run and the CPU this process (the server alone: the client is another process) spent on it. */
export type MeasuredLoad = LoadResult & { cpuMicros: number };

/** {@link runLoad}, with the CPU this process spent serving it. */
export async function measuredLoad(spec: LoadSpec): Promise<MeasuredLoad> {
  const before = process.cpuUsage();
  const result = await runLoad(spec);
  const used = process.cpuUsage(before);
  return { ...result, cpuMicros: used.user + used.system };
}
