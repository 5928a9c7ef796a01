import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
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
  return { requests: sent, errors, seconds, requestsPerSecond: sent / seconds, p50Ms: at(0.5), p99Ms: at(0.99) };
}

/**
 * Runs the load in a worker thread, so the server under test (on the main thread) has its
 * event loop to itself and the client's work shows up on the other core.
 */
export function runLoad(spec: LoadSpec): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: spec });
    worker.once('message', (result: LoadResult) => {
      void worker.terminate();
      resolve(result);
    });
    worker.once('error', reject);
  });
}

if (!isMainThread && parentPort) {
  const port = parentPort;
  void generate(workerData as LoadSpec).then((result) => port.postMessage(result));
}
