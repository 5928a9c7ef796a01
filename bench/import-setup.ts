import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { checkContent } from '../daemon/checks/check-rows.js';
import { loadConfig } from '../daemon/config/config.js';
import { newId } from '../daemon/db/ids.js';
import { createLogger } from '../daemon/log.js';
import { startDaemon, type RunningDaemon } from '../daemon/server.js';
import type { CheckDefinition } from '../checks/index.js';

/** The keyring key of benchmark daemons on PostgreSQL, and of the replicas that join them. */
export const BENCH_SECRET_KEY = Buffer.alloc(32, 9).toString('base64');

// Fresh databases and daemons for the benchmarks: every measured step starts from the same
// state (an empty organization), on SQLite and, when a server answers, PostgreSQL.

export type BenchDatabaseKind = 'sqlite' | 'postgres';

// The server the tests use (and .ci/run sets); each benchmark run creates its own databases there.
const PG_ADMIN_URL = process.env.SVC_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const ADMIN_PASSWORD = 'bench-admin-password';

/** Why PostgreSQL does not answer at the benchmark's address, or undefined when it does. */
export async function postgresProblem(): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    return undefined;
  } catch (error) {
    return `PostgreSQL at ${PG_ADMIN_URL.replace(/\/\/[^@]*@/, '//')} did not answer: ${(error as Error).message}`;
  } finally {
    await client.end().catch(() => {});
  }
}

/** Whether PostgreSQL answers at the benchmark's address. */
export async function postgresReachable(): Promise<boolean> {
  return (await postgresProblem()) === undefined;
}

async function pgAdmin(query: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 2000 });
  await client.connect();
  try {
    await client.query(query);
  } finally {
    await client.end();
  }
}

/** A started daemon on a fresh database, signed in as the built-in admin (owner of `default`). */
export interface BenchDaemon {
  daemon: RunningDaemon;
  token: string;
  orgUid: string;
  stop(): Promise<void>;
}

/** Starts a daemon on a new, empty database; `env` adds settings (the hosted API's address). */
export async function startBenchDaemon(kind: BenchDatabaseKind, env: Record<string, string> = {}): Promise<BenchDaemon & { dbUrl: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-'));
  let url = `sqlite:${join(dir, 'svc.db')}`;
  let drop = async () => {};
  if (kind === 'postgres') {
    const name = `svc_bench_${randomBytes(6).toString('hex')}`;
    await pgAdmin(`create database ${name}`);
    const address = new URL(PG_ADMIN_URL);
    address.pathname = `/${name}`;
    url = address.toString();
    drop = () => pgAdmin(`drop database if exists ${name} with (force)`);
  }
  const config = loadConfig(
    {
      SVC_DB_URL: url,
      SVC_LISTEN: '127.0.0.1:0',
      SVC_LOG_LEVEL: 'error',
      SVC_AUTH_JWT_SECRET: 'bench-secret-bench-secret-bench-secret',
      // PostgreSQL needs the key given (SQLite generates one beside its file).
      ...(kind === 'postgres' ? { SVC_SECRET_KEY: BENCH_SECRET_KEY } : {}),
      // Sign-in is not what is measured here.
      SVC_AUTH_PASSWORD_ARGON2_MEMORY: '8192',
      SVC_AUTH_PASSWORD_ARGON2_TIME: '1',
      SVC_AUTH_PASSWORD_ARGON2_THREADS: '1',
      // The benchmarks that run checks start their own runners.
      SVC_NODE_ROLE: 'api',
      // Benchmarks import tens of thousands of checks into one organization.
      SVC_CHECKS_PER_ORG_LIMIT: '0',
      ...env,
    },
    dir,
  );
  const daemon = await startDaemon(config, { logger: createLogger('error') });
  const post = async (path: string, body: unknown, token?: string) => {
    const res = await fetch(`${daemon.url}/api/v1${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${path} answered ${res.status}`);
    return res.status === 204 ? undefined : ((await res.json()) as { accessToken: string });
  };
  const login = await post('/auth/login', { email: 'admin@svc.local', password: 'svc-admin' });
  await post('/auth/password', { currentPassword: 'svc-admin', newPassword: ADMIN_PASSWORD }, login!.accessToken);
  const org = await daemon.deps.db.kysely.selectFrom('organizations').select('uid').where('slug', '=', 'default').executeTakeFirstOrThrow();
  return {
    daemon,
    dbUrl: url,
    token: login!.accessToken,
    orgUid: org.uid,
    async stop() {
      await daemon.close();
      await drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The baseline: the same rows an import stores, written with plain multi-row inserts (500
 * checks, 1,000 labels a statement, as the check store batches) in one transaction, with no
 * look-up, comparison or conflict handling. Returns the milliseconds it took.
 */
export async function rawBulkInsert(bench: BenchDaemon, checks: readonly CheckDefinition[]): Promise<number> {
  const db = bench.daemon.deps.db.kysely;
  const started = performance.now();
  await db.transaction().execute(async (trx) => {
    const at = new Date().toISOString();
    const rows = checks.map((check) => ({ uid: newId(), organization_uid: bench.orgUid, ...checkContent(check), created_at: at, updated_at: at }));
    for (let i = 0; i < rows.length; i += 500)
      await trx
        .insertInto('checks')
        .values(rows.slice(i, i + 500))
        .execute();
    const labels = rows.flatMap((row, i) =>
      Object.entries(checks[i].labels).map(([key, value]) => ({ check_uid: row.uid, organization_uid: bench.orgUid, key, value })),
    );
    for (let i = 0; i < labels.length; i += 1000)
      await trx
        .insertInto('check_labels')
        .values(labels.slice(i, i + 1000))
        .execute();
  });
  return performance.now() - started;
}
