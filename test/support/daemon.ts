import { Writable } from 'node:stream';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, fetch } from 'undici';
import { loadConfig } from '../../daemon/config/config.js';
import type { Clock } from '../../daemon/clock.js';
import type { EgressPolicy } from '../../probes/egress.js';
import { createLogger } from '../../daemon/log.js';
import { startDaemon, type RunningDaemon } from '../../daemon/server.js';
import { createTestDatabase, type DatabaseKind, type TestDatabase } from './databases.js';

/** Cheap hashing for tests that are not about hashing costs. */
export const FAST_HASHING = {
  SVC_AUTH_PASSWORD_ARGON2_MEMORY: '8192',
  SVC_AUTH_PASSWORD_ARGON2_TIME: '1',
  SVC_AUTH_PASSWORD_ARGON2_THREADS: '1',
};

/** The secret key test daemons on PostgreSQL use (SQLite daemons generate theirs beside the file). */
export const TEST_SECRET_KEY = Buffer.alloc(32, 7).toString('base64');

export const ADMIN_EMAIL = 'admin@svc.local';
export const ADMIN_PASSWORD = 'admin-password-1';

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface TestDaemon extends RunningDaemon {
  database: TestDatabase;
  /** Every log line the daemon wrote, for assertions that nothing secret is logged. */
  logs: string[];
  request<T = any>(
    method: string,
    path: string,
    options?: { token?: string; body?: unknown; raw?: Uint8Array | string; headers?: Record<string, string> },
  ): Promise<ApiResponse<T>>;
  /** Signs in and returns the access token (fails the test on anything but 200). */
  login(email: string, password: string): Promise<string>;
  /** The built-in admin, its password already changed: a super admin and owner of `default`. */
  adminToken(): Promise<string>;
  /** Registers an account and returns its token. */
  register(email: string, password?: string): Promise<{ token: string; uid: string }>;
  /** Stops the daemon and drops its database. */
  stop(): Promise<void>;
}

/** Starts a daemon on loopback (port 0) on a fresh database of the given kind. */
export async function startTestDaemon(
  kind: DatabaseKind,
  options: { env?: Record<string, string>; clock?: Clock; database?: TestDatabase; egress?: EgressPolicy } = {},
): Promise<TestDaemon> {
  const database = options.database ?? (await createTestDatabase(kind));
  const cwd = mkdtempSync(join(tmpdir(), 'svc-cwd-'));
  const config = loadConfig(
    {
      SVC_DB_URL: database.url,
      SVC_LISTEN: '127.0.0.1:0',
      SVC_LOG_LEVEL: 'info',
      SVC_AUTH_JWT_SECRET: 'test-secret-test-secret-test-secret!',
      SVC_AUTH_PASSWORD_HASH_CONCURRENCY: '2',
      // Suites register and start sign-ins from one loopback client far more often than people do.
      SVC_AUTH_REGISTER_RATE_LIMIT: '100000',
      SVC_AUTH_EXTERNAL_SIGN_IN_RATE_LIMIT: '100000',
      // PostgreSQL needs the key given; SQLite generates one beside its file on first start.
      ...(database.kind === 'postgres' ? { SVC_SECRET_KEY: TEST_SECRET_KEY } : {}),
      // Suites that are about the monitoring engine ask for a runner (SVC_NODE_ROLE=all).
      SVC_NODE_ROLE: 'api',
      // No test sends a packet past loopback: checks run now or by a runner, and notifications,
      // may connect to loopback only (fixtures name outside hosts).
      SVC_RUNNER_ALLOW: '127.0.0.0/8, ::1',
      ...FAST_HASHING,
      ...options.env,
    },
    cwd,
  );
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logs.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  const daemon = await startDaemon(config, { clock: options.clock, logger: createLogger('info', sink), egress: options.egress });

  // A connection per request, so that no request depends on a connection an earlier one left
  // open: the daemon runs in the test's own process, and a test that holds the event loop
  // (building a fixture) can let the server close a kept connection as the next request is
  // written on it.
  const client = new Agent({ pipelining: 0 });
  const request: TestDaemon['request'] = async (method, path, opts = {}) => {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    let body: string | Uint8Array | undefined;
    if (opts.raw !== undefined) body = opts.raw;
    else if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] = 'application/json';
    }
    const response = await fetch(`${daemon.url}/api/v1${path}`, { method, headers, body, dispatcher: client });
    // An event stream never ends by itself: answer its status and headers, and hang up.
    if (response.ok && response.headers.get('content-type')?.startsWith('text/event-stream')) {
      await response.body?.cancel();
      return { status: response.status, body: undefined as any, headers: response.headers };
    }
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, body: parsed as any, headers: response.headers };
  };

  const login = async (email: string, password: string) => {
    const res = await request('POST', '/auth/login', { body: { email, password } });
    if (res.status !== 200) throw new Error(`login of ${email} answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body.accessToken as string;
  };

  let adminToken: string | undefined;
  return {
    ...daemon,
    database,
    logs,
    request,
    login,
    async adminToken() {
      if (adminToken) return adminToken;
      const first = await login(ADMIN_EMAIL, 'svc-admin');
      const changed = await request('POST', '/auth/password', { token: first, body: { currentPassword: 'svc-admin', newPassword: ADMIN_PASSWORD } });
      if (changed.status !== 204) throw new Error(`admin password change answered ${changed.status}`);
      adminToken = first;
      return first;
    },
    async register(email, password = 'password-123') {
      const res = await request('POST', '/auth/register', { body: { email, password } });
      if (res.status !== 201) throw new Error(`register ${email} answered ${res.status}: ${JSON.stringify(res.body)}`);
      return { token: await login(email, password), uid: res.body.user.uid as string };
    },
    async stop() {
      await daemon.close();
      await client.close();
      await database.drop();
    },
  };
}
