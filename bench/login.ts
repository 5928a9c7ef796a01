import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { loadConfig } from '../daemon/config/config.js';
import { newId } from '../daemon/db/ids.js';
import { createLogger } from '../daemon/log.js';
import { startDaemon } from '../daemon/server.js';
import { printTable } from './table.js';

const USERS = 100;
const PASSWORD = 'bench password 1';

/**
 * The client side runs in a worker thread, so the daemon's event loop (the main thread) measures
 * only the daemon's own delays: 100 logins sent at once, each answer's status collected.
 */
const CLIENT = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  const started = performance.now();
  const statuses = await Promise.all(workerData.emails.map((email) =>
    fetch(workerData.url + '/api/v1/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: workerData.password }),
    }).then((r) => r.status, () => 0)));
  parentPort.postMessage({ ms: performance.now() - started, statuses });
})();
`;

function burst(url: string, emails: string[]): Promise<{ ms: number; statuses: number[] }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(CLIENT, { eval: true, workerData: { url, emails, password: PASSWORD } });
    worker.once('message', (m) => {
      void worker.terminate();
      resolve(m as { ms: number; statuses: number[] });
    });
    worker.once('error', reject);
  });
}

/** 100 concurrent sign-ins at the default argon2id profile against a daemon on loopback. */
export async function run(): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-login-'));
  const config = loadConfig(
    { SVC_DB_URL: `sqlite:${join(dir, 'svc.db')}`, SVC_LISTEN: '127.0.0.1:0', SVC_LOG_LEVEL: 'error', SVC_AUTH_LOGIN_RATE_LIMIT_PER_CLIENT: '100000' },
    dir,
  );
  const daemon = await startDaemon(config, { logger: createLogger('error') });
  try {
    const { hasher, db } = daemon.deps;
    const hash = await hasher.hash(PASSWORD);
    const now = new Date().toISOString();
    const emails = Array.from({ length: USERS }, (_, i) => `bench-${i}@example.com`);
    await db.kysely
      .insertInto('users')
      .values(
        emails.map((email) => ({
          uid: newId(),
          email,
          name: email,
          password_hash: hash,
          email_verified: 1,
          super_admin: 0,
          must_change_password: 0,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();

    // Single-hash time: the same verify a login does, one at a time, after a warm-up.
    await hasher.verify(hash, PASSWORD);
    const singleRuns = 5;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    for (let i = 0; i < singleRuns; i++) await hasher.verify(hash, PASSWORD);
    const singleHashMs = (performance.now() - t0) / singleRuns;
    const cpu = process.cpuUsage(cpu0);
    // argon2id with p > 1 may run its lanes on several cores at once, so one hash can take less
    // wall time than CPU time; the CPU time bounds what the cores can do in total.
    const singleHashCpuMs = (cpu.user + cpu.system) / 1000 / singleRuns;
    const cores = availableParallelism();
    const limit = cores / (singleHashMs / 1000);
    const cpuLimit = cores / (singleHashCpuMs / 1000);

    await burst(daemon.url, emails.slice(0, 4));
    const loop = monitorEventLoopDelay({ resolution: 5 });
    let peakRss = process.memoryUsage().rss;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 10);
    loop.enable();
    const result = await burst(daemon.url, emails);
    loop.disable();
    clearInterval(sampler);
    peakRss = Math.max(peakRss, process.memoryUsage().rss);

    const errors = result.statuses.filter((s) => s !== 200).length;
    const loginsPerSecond = USERS / (result.ms / 1000);
    const figures = {
      cores,
      hashConcurrency: config.auth.hashConcurrency,
      policy: `${config.auth.password.algorithm} m=${config.auth.password.argon2.memory} t=${config.auth.password.argon2.time} p=${config.auth.password.argon2.threads}`,
      singleHashMs: round(singleHashMs),
      limitLoginsPerSecond: round(limit),
      loginsPerSecond: round(loginsPerSecond),
      ratioToLimit: round(loginsPerSecond / limit),
      singleHashCpuMs: round(singleHashCpuMs),
      cpuLimitLoginsPerSecond: round(cpuLimit),
      ratioToCpuLimit: round(loginsPerSecond / cpuLimit),
      burstMs: round(result.ms),
      peakRssMiB: round(peakRss / 1024 / 1024),
      eventLoopP99Ms: round(loop.percentile(99) / 1e6),
      errors,
    };
    printTable([
      ['single-hash time', `${figures.singleHashMs} ms`, ''],
      ['limit (cores ÷ single-hash time)', `${figures.limitLoginsPerSecond} logins/s`, ''],
      ['100 concurrent logins', `${figures.loginsPerSecond} logins/s`, ''],
      ['ratio to the limit', String(figures.ratioToLimit), 'target ≥ 0.8'],
      ['single-hash CPU time (all threads)', `${figures.singleHashCpuMs} ms`, ''],
      ['ratio to cores ÷ single-hash CPU time', String(figures.ratioToCpuLimit), ''],
      ['peak RSS', `${figures.peakRssMiB} MiB`, 'target < 600 MiB'],
      ['event-loop delay p99', `${figures.eventLoopP99Ms} ms`, 'target < 50 ms'],
      ['errors', String(errors), 'target 0'],
    ]);
    return figures;
  } finally {
    await daemon.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const round = (n: number) => Math.round(n * 100) / 100;
