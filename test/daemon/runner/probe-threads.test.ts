import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateCheck, type CheckDefinition } from '../../../checks/index.js';
import { manualClock } from '../../../daemon/clock.js';
import { ProbeThreads, runsOnProbeThread } from '../../../daemon/runner/probe-threads.js';
import { createEgressPolicy } from '../../../probes/egress.js';
import { runProbe } from '../../../probes/run-probe.js';
import { closedAfterEach } from '../../support/closed-after-each.js';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';

// Probe threads run the compiled probe-thread-worker.js in dist/ (`node scripts/build.mjs` first).
// The target is another process, so that it answers while this thread is held.
const SECRET = 'Zq8-probe-thread-secret-4711';
const TARGET = `
const http = require('node:http');
const server = http.createServer((req, res) => {
  if (req.url === '/down') return res.writeHead(503).end('broken');
  if (req.url === '/slow') return setTimeout(() => res.end('late'), 3000);
  if (req.url === '/auth') return res.writeHead(req.headers.authorization === 'Bearer ${SECRET}' ? 200 : 401).end('auth');
  res.end('all good');
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
`;

async function startTarget(): Promise<{ url: string; port: number; child: ChildProcess }> {
  const child = spawn(process.execPath, ['-e', TARGET], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve) => child.stdout!.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim()))));
  return { url: `http://127.0.0.1:${port}`, port, child };
}

/** A port that refuses connections: one listened on and closed. */
async function closedPort(): Promise<number> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function check(input: Record<string, unknown>): CheckDefinition {
  const result = validateCheck({ slug: 'c', name: 'C', intervalSeconds: 30, thresholds: { timeoutMs: 2000 }, ...input });
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.check;
}

describe('probe threads', () => {
  let target: Awaited<ReturnType<typeof startTarget>>;
  const threads = closedAfterEach((egress: { denyPrivate: boolean; allow?: string[] } = { denyPrivate: false }) => new ProbeThreads({ threads: 2, egress }));
  beforeAll(async () => {
    target = await startTarget();
  });
  afterAll(() => {
    target.child.kill();
  });

  it("take HTTP checks without JSON queries and TCP checks; the others stay on the daemon's thread", () => {
    expect(runsOnProbeThread(check({ type: 'http', target: 'http://127.0.0.1:1/' }))).toBe(true);
    expect(runsOnProbeThread(check({ type: 'tcp', target: '127.0.0.1:1' }))).toBe(true);
    const withQueries = check({ type: 'http', target: 'http://127.0.0.1:1/', config: { jsonQueries: [{ expression: 'status', expected: 'ok' }] } });
    expect(runsOnProbeThread(withQueries)).toBe(false);
    expect(runsOnProbeThread(check({ type: 'dns', target: 'example.com', config: { resolver: '127.0.0.1:53' } }))).toBe(false);
  });

  it("answer HTTP and TCP runs as the daemon's thread does", async () => {
    const refused = await closedPort();
    const checks = [
      check({ type: 'http', target: `${target.url}/ok`, config: { keyword: { value: 'all good' } } }),
      check({ type: 'http', target: `${target.url}/down` }),
      check({ type: 'tcp', target: `127.0.0.1:${target.port}` }),
      check({ type: 'tcp', target: `127.0.0.1:${refused}` }),
    ];
    const pool = threads();
    const there = await Promise.all(checks.map((each) => pool.run(each, [])));
    const here = await Promise.all(checks.map((each) => runProbe(each, { egress: createEgressPolicy({ denyPrivate: false }) })));
    expect(there.map(({ status, message }) => ({ status, message }))).toEqual(here.map(({ status, message }) => ({ status, message })));
    expect(there.map(({ status }) => status)).toEqual(['up', 'down', 'up', 'down']);
    expect(there[1].message).toBe('expected status 200-299, got 503');
  });

  it("run while the daemon's thread is held: the run's time is the target's alone", async () => {
    const pool = threads();
    const ok = check({ type: 'http', target: `${target.url}/ok` });
    await pool.run(ok, []);
    const running = pool.run(ok, []);
    // The run's batch is posted in the turn after it was asked for; then this thread is held.
    await new Promise((resolve) => setImmediate(resolve));
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 600);
    const result = await running;
    expect(result.status).toBe('up');
    expect(result.latencyMs).toBeLessThan(400);
  });

  it('hold runs to the egress policy of the settings', async () => {
    const ok = check({ type: 'http', target: `${target.url}/ok` });
    expect((await threads({ denyPrivate: true }).run(ok, [])).message).toBe('egress policy refuses 127.0.0.1 (loopback or private address)');
    expect((await threads({ denyPrivate: false, allow: ['10.0.0.0/8'] }).run(ok, [])).message).toBe(
      'egress policy refuses 127.0.0.1 (outside the allowed networks)',
    );
  });

  it("keep the check's secret values out of the message", async () => {
    const missing = check({ type: 'http', target: `${target.url}/ok`, config: { keyword: { value: SECRET } } });
    const result = await threads().run(missing, [SECRET]);
    expect(result.status).toBe('down');
    expect(result.message).toBe('[withheld: contained a secret]');
  });

  it('end a run under way down, saying why, when they are closed', async () => {
    const pool = threads();
    const slow = pool.run(check({ type: 'http', target: `${target.url}/slow`, thresholds: { timeoutMs: 10_000 } }), []);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await pool.close();
    expect(await slow).toEqual({ status: 'down', latencyMs: 0, message: 'the probe thread could not run the check: the worker is closed' });
  });
});

describe.each(DATABASE_KINDS)('a daemon with probe threads [%s]', (kind) => {
  const clock = manualClock(new Date('2026-03-01T10:00:00Z'));
  let daemon: TestDaemon;
  let admin: string;
  let target: Awaited<ReturnType<typeof startTarget>>;

  beforeAll(async () => {
    target = await startTarget();
    daemon = await startTestDaemon(kind, { clock, env: { SVC_NODE_ROLE: 'all', SVC_RUNNER_PROBE_THREADS: '1' } });
    admin = await daemon.adminToken();
    expect((await daemon.request('PUT', '/orgs/default/secrets/API_TOKEN', { token: admin, body: { value: SECRET } })).status).toBe(200);
  });
  afterAll(async () => {
    await daemon?.stop();
    target?.child.kill();
  });

  const lastResult = async (slug: string) => (await daemon.request('GET', `/orgs/default/checks/${slug}`, { token: admin })).body.lastResult;
  const threadRuns = async () => {
    const text = await daemon.deps.metrics.registry.getSingleMetricAsString('svc_runner_probe_thread_runs_total');
    return Number(/svc_runner_probe_thread_runs_total (\d+)/.exec(text)?.[1]);
  };

  it('runs HTTP checks there with their secrets substituted, and JSON-query checks on its own thread', async () => {
    const checks = [
      { name: 'Auth', slug: 'auth', target: `${target.url}/auth`, config: { headers: { Authorization: 'Bearer {{secrets.API_TOKEN}}' } } },
      { name: 'Down', slug: 'down', target: `${target.url}/down` },
      { name: 'Queried', slug: 'queried', target: `${target.url}/ok`, config: { jsonQueries: [{ expression: 'status', expected: 'ok' }] } },
    ];
    for (const check of checks) {
      const created = await daemon.request('POST', '/orgs/default/checks', { token: admin, body: { type: 'http', intervalSeconds: 20, ...check } });
      expect(created.status).toBe(201);
    }
    const before = await threadRuns();
    // The runner's loop polls in real time; the manual clock makes every check due.
    clock.advance(25_000);
    await expect.poll(() => lastResult('auth'), { timeout: 15_000, interval: 100 }).toMatchObject({ status: 'up', message: 'status 200' });
    await expect
      .poll(() => lastResult('down'), { timeout: 15_000, interval: 100 })
      .toMatchObject({ status: 'down', message: 'expected status 200-299, got 503' });
    await expect
      .poll(() => lastResult('queried'), { timeout: 15_000, interval: 100 })
      .toMatchObject({ status: 'down', message: 'the response body is not JSON' });
    // Two of the three went to the probe thread: the JSON-query check ran here.
    expect((await threadRuns()) - before).toBe(2);
  });
});
