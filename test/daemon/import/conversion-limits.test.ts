import { existsSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import initSqlJs from 'sql.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildLargeDatabase } from '../../fixtures/import/uptime-kuma/generate-large.js';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';
import { checksSnapshot, convertPath } from './helpers.js';
import { CONVERSION_WORKER_ENTRY } from '../../../daemon/import/conversion-workers.js';

// Conversions run on a worker thread (the bundle built in dist/: `npm run build` first).

/**
 * An 8 KB database of the self-hosted monitor whose `monitor` table has a generated column that
 * costs about 50 ms per row to compute: `SELECT *` over it spins for about a second. With
 * `generatedUrl` the `url` column itself is generated.
 */
async function craftedDatabase(options: { generatedUrl?: boolean } = {}): Promise<Uint8Array> {
  const SQL = await initSqlJs();
  const db = new SQL.Database();
  const url = options.generatedUrl
    ? "url TEXT GENERATED ALWAYS AS ('https://gen' || id || '.example.com' || length(hex(zeroblob(1000000)))) VIRTUAL"
    : 'url TEXT';
  db.exec(`CREATE TABLE monitor (id INTEGER PRIMARY KEY, name TEXT, type TEXT, ${url}, interval INTEGER, active BOOLEAN,
    spin INTEGER GENERATED ALWAYS AS (length(replace(hex(zeroblob(5000000 + id)), '0', 'ab'))) VIRTUAL)`);
  for (let i = 1; i <= 20; i++) {
    if (options.generatedUrl) db.run("INSERT INTO monitor (id, name, type, interval, active) VALUES (?, ?, 'http', 60, 1)", [i, `Site ${i}`]);
    else db.run("INSERT INTO monitor (id, name, type, url, interval, active) VALUES (?, ?, 'http', ?, 60, 1)", [i, `Site ${i}`, `https://s${i}.example.com`]);
  }
  const bytes = db.export();
  db.close();
  return bytes;
}

/** Runs `work` while sampling this process's event-loop delay; the daemon under test runs in it. */
async function withLoopDelay<T>(work: () => Promise<T>): Promise<{ value: T; p99Ms: number; maxMs: number }> {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  try {
    const value = await work();
    return { value, p99Ms: histogram.percentile(99) / 1e6, maxMs: histogram.max / 1e6 };
  } finally {
    histogram.disable();
  }
}

describe.each(DATABASE_KINDS)('import conversion limits [%s]', (kind) => {
  let daemon: TestDaemon;
  let admin: string;
  beforeAll(async () => {
    expect(existsSync(CONVERSION_WORKER_ENTRY), 'the bundled conversion worker exists: run npm run build').toBe(true);
    daemon = await startTestDaemon(kind, { env: { SVC_IMPORT_CONVERSION_TIMEOUT_MS: '20000' } });
    admin = await daemon.adminToken();
  });
  afterAll(() => daemon.stop());

  const convert = (query: string, raw: Uint8Array, on = daemon) => on.request('POST', convertPath(query), { token: admin, raw });

  it('reads a crafted database with generated columns without computing them, and the daemon stays responsive', async () => {
    const crafted = await craftedDatabase();
    expect(crafted.length).toBeLessThanOrEqual(8192);
    const before = await checksSnapshot(daemon);
    const { value, maxMs } = await withLoopDelay(async () => {
      const started = performance.now();
      const importing = convert('source=selfhosted-monitor-db&dryRun=true', crafted);
      // A cheap request while the import is under way answers at once.
      const health = await daemon.request('GET', '/health');
      const healthMs = performance.now() - started;
      return { preview: await importing, health, healthMs, totalMs: performance.now() - started };
    });
    // Bounds with room for a loaded machine (about 200 ms here), below what computing the columns would cost.
    expect(value.health.status).toBe(200);
    expect(value.healthMs).toBeLessThan(1000);
    expect(value.preview.status, JSON.stringify(value.preview.body)).toBe(200);
    expect(value.preview.body).toMatchObject({ created: 20, skipped: 0 });
    // SELECT * over these rows takes about 1.4 s in the converter's SQLite (sql.js); the named columns take milliseconds.
    expect(value.totalMs).toBeLessThan(1000);
    expect(maxMs, 'no event-loop stall').toBeLessThan(500);
    expect(await checksSnapshot(daemon)).toBe(before);
  });

  it('treats a generated column the converter needs as absent: the items are reported, nothing is computed', async () => {
    const res = await convert('source=selfhosted-monitor-db&dryRun=true', await craftedDatabase({ generatedUrl: true }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.created).toBe(0);
    expect(res.body.skipped).toBe(20);
    expect(res.body.checks[0]).toMatchObject({ name: 'Site 1', action: 'skip' });
  });

  it('stops a conversion at the time limit with 400 INVALID_IMPORT_INPUT and writes nothing', async () => {
    const strict = await startTestDaemon(kind, { env: { SVC_IMPORT_CONVERSION_TIMEOUT_MS: '50' } });
    try {
      const token = await strict.adminToken();
      const before = await checksSnapshot(strict);
      const large = await buildLargeDatabase(3000);
      const { value: res, maxMs } = await withLoopDelay(() => strict.request('POST', convertPath('source=selfhosted-monitor-db'), { token, raw: large }));
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'INVALID_IMPORT_INPUT', details: { reason: 'CONVERSION_TIMEOUT', limitMs: 50 } });
      expect(res.body.error.message).toMatch(/took longer than 50 ms .* nothing was written/);
      expect(maxMs).toBeLessThan(250);
      expect(await checksSnapshot(strict)).toBe(before);
    } finally {
      await strict.stop();
    }
  });

  it('stops a conversion at the memory limit with 413 PAYLOAD_TOO_LARGE and writes nothing', async () => {
    const small = await startTestDaemon(kind, { env: { SVC_IMPORT_CONVERSION_MEMORY_MB: '16', SVC_IMPORT_CONVERSION_TIMEOUT_MS: '60000' } });
    try {
      const token = await small.adminToken();
      const before = await checksSnapshot(small);
      const res = await small.request('POST', convertPath('source=selfhosted-monitor-db'), { token, raw: await buildLargeDatabase(10_000) });
      expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(413);
      expect(res.body.error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', details: { reason: 'CONVERSION_MEMORY', limitMb: 16 } });
      expect(await checksSnapshot(small)).toBe(before);
      // The daemon goes on serving.
      expect((await small.request('GET', '/health')).status).toBe(200);
    } finally {
      await small.stop();
    }
  });
});
