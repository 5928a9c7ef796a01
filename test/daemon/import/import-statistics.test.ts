import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';
import { convertPath, gatusEndpoints } from './helpers.js';

// After an import that writes many checks, the planner's statistics of checks and check_labels
// are refreshed (daemon/checks/check-statistics.ts), after the import's response rather than
// before it. Without them PostgreSQL believes the tables nearly empty until autovacuum runs.

const ENDPOINTS = 1000;

/** Which of checks and check_labels the database holds planner statistics of. */
async function tablesWithStatistics(daemon: TestDaemon): Promise<string[]> {
  const db = daemon.deps.db.kysely;
  if (daemon.deps.db.kind === 'sqlite') {
    const table = await sql<{ n: number }>`select count(*) as n from sqlite_master where name = 'sqlite_stat1'`.execute(db);
    if (Number(table.rows[0].n) === 0) return [];
    const rows = await sql<{ tbl: string }>`select distinct tbl from sqlite_stat1 where tbl in ('checks', 'check_labels') order by tbl`.execute(db);
    return rows.rows.map((row) => row.tbl);
  }
  const rows = await sql<{ tablename: string }>`select distinct tablename from pg_stats
    where schemaname = current_schema() and tablename in ('checks', 'check_labels') order by tablename`.execute(db);
  return rows.rows.map((row) => row.tablename);
}

describe.each(DATABASE_KINDS)('the statistics of the checks after a large import [%s]', (kind) => {
  let daemon: TestDaemon;
  let admin: string;
  beforeAll(async () => {
    daemon = await startTestDaemon(kind);
    admin = await daemon.adminToken();
  });
  afterAll(async () => {
    await daemon.stop();
  });

  const convert = (query: string) => daemon.request('POST', convertPath(query), { token: admin, raw: gatusEndpoints(ENDPOINTS, 'bulk') });

  it('are left alone by a preview, and refreshed after the apply of 1,000 checks', async () => {
    const preview = await convert('source=configfile-monitor&dryRun=true');
    expect(preview.status, JSON.stringify(preview.body).slice(0, 300)).toBe(200);
    expect(preview.body.created).toBe(ENDPOINTS);
    expect(await tablesWithStatistics(daemon)).toEqual([]);

    const applied = await convert('source=configfile-monitor');
    expect(applied.status).toBe(200);
    expect(applied.body.created).toBe(ENDPOINTS);
    await expect.poll(() => tablesWithStatistics(daemon), { timeout: 10_000, interval: 50 }).toEqual(['check_labels', 'checks']);
  });
});
