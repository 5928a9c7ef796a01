import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/local-servers.js';
import { openDatabase, migrate } from '../../daemon/db/connect.js';
import { runSvc, SVC_BIN } from '../support/cli.js';
import { createTestDatabase, DATABASE_KINDS } from '../support/databases.js';
import { ADMIN_EMAIL, FAST_HASHING, startTestDaemon, type TestDaemon } from '../support/daemon.js';

describe.each(DATABASE_KINDS)('operating the daemon (%s)', (kind) => {
  let daemon: TestDaemon;
  beforeAll(async () => {
    daemon = await startTestDaemon(kind, { env: { SVC_METRICS_LISTEN: '127.0.0.1:0' } });
  });
  afterAll(() => daemon?.stop());

  it('answers readiness with the database', async () => {
    const res = await daemon.request('GET', '/ready');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ready', database: kind });
  });

  it('answers unknown API paths, wrong methods and wrong media types in the error shape', async () => {
    for (const path of ['/api/v1/no-such-thing', '/api/v2/checks', '/api/']) {
      const res = await fetch(`${daemon.url}${path}`);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/json/);
      expect((await res.json()).error.code).toBe('NOT_FOUND');
    }
    const wrongMethod = await daemon.request('PUT', '/health');
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.body.error.code).toBe('METHOD_NOT_ALLOWED');
    expect(wrongMethod.headers.get('allow')).toContain('GET');
    const wrongType = await daemon.request('POST', '/auth/login', {
      raw: 'email=a&password=b',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(wrongType.status).toBe(415);
    expect(wrongType.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('gives every request an id and one access-log line with the route template, never the token', async () => {
    const token = await daemon.adminToken();
    const own = await daemon.request('GET', '/orgs/default/checks', { token, headers: { 'x-request-id': 'trace-42' } });
    expect(own.headers.get('x-request-id')).toBe('trace-42');
    const made = await daemon.request('GET', '/health', { headers: { 'x-request-id': 'not allowed: spaces' } });
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const line = daemon.logs.map((l) => JSON.parse(l)).find((l) => l.msg === 'request' && l.requestId === 'trace-42');
    expect(line).toMatchObject({ method: 'GET', route: '/api/v1/orgs/:org/checks', status: 200 });
    expect(typeof line.ms).toBe('number');
    expect(daemon.logs.join('\n')).not.toContain(token);
  });

  it('serves Prometheus metrics with the request, sign-in and hashing series', async () => {
    await daemon.request('POST', '/auth/login', { body: { email: ADMIN_EMAIL, password: 'wrong-password' } });
    await daemon.request('GET', '/health');
    // The MCP endpoint is named like a route, in the metrics and the access log.
    expect((await daemon.request('POST', '/mcp', { body: {} })).status).toBe(401);
    const text = await (await fetch(daemon.metricsUrl!)).text();
    expect(text).toMatch(/svc_http_request_duration_seconds_count\{method="GET",route="\/api\/v1\/health",status="200"\} [1-9]/);
    expect(text).toMatch(/svc_http_request_duration_seconds_count\{method="POST",route="\/api\/v1\/mcp",status="401"\} 1/);
    expect(daemon.logs.map((l) => JSON.parse(l)).find((l) => l.msg === 'request' && l.route === '/api/v1/mcp')).toMatchObject({ method: 'POST', status: 401 });
    expect(text).toMatch(/svc_sign_ins_total\{method="password",result="failed"\} [1-9]/);
    expect(text).toMatch(/svc_sign_ins_total\{method="password",result="ok"\} [1-9]/);
    expect(text).toMatch(/svc_password_hash_seconds_count\{operation="verify"\} [1-9]/);
    expect(text).toContain('svc_open_incidents 0');
    if (kind === 'postgres') expect(text).toMatch(/svc_db_pool_connections\{state="idle"\}/);
    expect((await fetch(daemon.metricsUrl!.replace('/metrics', '/other'))).status).toBe(404);
    // The API port does not serve them.
    expect((await fetch(`${daemon.url}/metrics`)).headers.get('content-type')).not.toContain('text/plain; version');
  });

  it('refuses a database written by a newer version, in words', async () => {
    const database = await createTestDatabase(kind);
    const db = openDatabase(database.url);
    try {
      await migrate(db);
      await db.kysely
        .insertInto('kysely_migration' as never)
        .values({ name: '999-from-the-future', timestamp: new Date().toISOString() } as never)
        .execute();
      await expect(migrate(db)).rejects.toThrow(/written by a newer version of svc \(it has migration 999-from-the-future/);
    } finally {
      await db.close();
      await database.drop();
    }
  });
});

/** A daemon as a process, as an operator runs it. */
function spawnDaemon(env: Record<string, string>): {
  child: ChildProcessWithoutNullStreams;
  output: () => { stdout: string; stderr: string };
  exited: Promise<number>;
} {
  const child = spawn(process.execPath, [SVC_BIN, 'daemon'], {
    env: { PATH: process.env.PATH ?? '', HOME: tmpdir(), SVC_AUTH_JWT_SECRET: 'operations-test-secret-operations!', ...FAST_HASHING, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<number>((resolve) => child.on('exit', (code) => resolve(code ?? 1)));
  return { child, output: () => ({ stdout, stderr }), exited };
}

async function waitForReady(url: string, timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const status = await fetch(`${url}/api/v1/ready`).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not become ready`);
}

describe('the daemon as a process', () => {
  it('finishes the requests under way on SIGTERM, then exits 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-ops-'));
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    // Real hashing costs, so that each sign-in is still running when the signal arrives.
    const { child, exited, output } = spawnDaemon({
      SVC_DB_URL: `sqlite:${join(dir, 'svc.db')}`,
      SVC_LISTEN: `127.0.0.1:${port}`,
      SVC_AUTH_PASSWORD_ARGON2_MEMORY: '65536',
      SVC_AUTH_PASSWORD_ARGON2_TIME: '3',
      SVC_AUTH_PASSWORD_HASH_CONCURRENCY: '1',
    });
    await waitForReady(url);
    const attempts = Array.from({ length: 6 }, () =>
      fetch(`${url}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: ADMIN_EMAIL, password: 'wrong-password-1' }),
      }).then(
        (r) => r.status,
        (error: Error) => `failed: ${error.message}`,
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    child.kill('SIGTERM');
    const statuses = await Promise.all(attempts);
    expect(statuses).toEqual(statuses.map(() => 401));
    expect(await exited).toBe(0);
    expect(output().stderr).toContain('SIGTERM received');
    // Once it has stopped, nothing listens.
    await expect(fetch(`${url}/api/v1/health`)).rejects.toThrow();
  });

  it.each(['uncaughtException', 'unhandledRejection'])(
    'ends on an error nothing handled (%s) with one log line and no stack, exit 1 for its supervisor',
    async (origin) => {
      const dir = mkdtempSync(join(tmpdir(), 'svc-ops-'));
      const port = await freePort();
      // Stands in for a library that emits an error no one listens for, or rejects a promise no one awaits (on SIGUSR2).
      const fault = join(dir, 'library-fault.mjs');
      writeFileSync(
        fault,
        `process.on('SIGUSR2', () => setImmediate(() => {
          const error = Object.assign(new Error('connection lost in a library'), { code: 'ELIBRARY' });
          if (process.env.FAULT === 'unhandledRejection') Promise.reject(error); else throw error;
        }));\n`,
      );
      const { child, exited, output } = spawnDaemon({
        SVC_DB_URL: `sqlite:${join(dir, 'svc.db')}`,
        SVC_LISTEN: `127.0.0.1:${port}`,
        NODE_OPTIONS: `--import=${pathToFileURL(fault).href}`,
        FAULT: origin,
      });
      await waitForReady(`http://127.0.0.1:${port}`);
      child.kill('SIGUSR2');
      expect(await exited).toBe(1);
      const { stdout, stderr } = output();
      const fatal = stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line))
        .filter((line) => line.level === 60);
      expect(fatal).toEqual([expect.objectContaining({ err: 'connection lost in a library', name: 'Error', code: 'ELIBRARY', origin })]);
      expect(`${stdout}${stderr}`).not.toContain('library-fault.mjs');
      expect(stderr).not.toMatch(/^\s+at /m);
    },
  );

  it('writes JSON log lines to a pipe and the banner to stderr', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-ops-'));
    const port = await freePort();
    const { child, exited, output } = spawnDaemon({ SVC_DB_URL: `sqlite:${join(dir, 'svc.db')}`, SVC_LISTEN: `127.0.0.1:${port}` });
    await waitForReady(`http://127.0.0.1:${port}`);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    const { stdout, stderr } = output();
    const lines = stdout.split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
    expect(stderr).toContain(`svc daemon listening on http://127.0.0.1:${port}`);
    expect(stderr).toContain('./bin/svc login');
    expect(stdout).not.toContain(`listening on http://127.0.0.1:${port} (database`);
  });

  it('writes readable lines with SVC_LOG_FORMAT=pretty', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-ops-'));
    const port = await freePort();
    const { child, exited, output } = spawnDaemon({ SVC_DB_URL: `sqlite:${join(dir, 'svc.db')}`, SVC_LISTEN: `127.0.0.1:${port}`, SVC_LOG_FORMAT: 'pretty' });
    await waitForReady(`http://127.0.0.1:${port}`);
    child.kill('SIGTERM');
    await exited;
    expect(output().stdout).toMatch(/^\d\d:\d\d:\d\d\.\d{3} INFO {2}svc daemon listening on /m);
    expect(output().stdout).toMatch(/INFO {2}request {2}requestId=\S+ method=GET route=\/api\/v1\/ready status=200/);
  });

  it('fails on a port in use before anything is written', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    const dir = mkdtempSync(join(tmpdir(), 'svc-ops-'));
    try {
      const result = await runSvc(['daemon'], { env: { SVC_DB_URL: `sqlite:${join(dir, 'svc.db')}`, SVC_LISTEN: `127.0.0.1:${port}` } });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`127.0.0.1:${port} is already in use (SVC_LISTEN)`);
      expect(existsSync(join(dir, 'svc.db'))).toBe(false);
    } finally {
      blocker.close();
    }
  });

  it('names a database path it cannot use, and does not hang on one under /proc', async () => {
    const port = await freePort();
    const started = Date.now();
    const result = await runSvc(['daemon'], { env: { SVC_DB_URL: 'sqlite:/proc/svc-test/svc.db', SVC_LISTEN: `127.0.0.1:${port}` }, timeoutMs: 15_000 });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('cannot open the SQLite database at /proc/svc-test/svc.db');
    expect(Date.now() - started).toBeLessThan(15_000);
  });
});
