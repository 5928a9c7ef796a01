import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';
import { IN_CI } from '../../support/required-tool.js';

const CHECKS = 4;

/** A small tmpfs of our own (root only): the disk the test fills. */
function mountSmallDisk(): { dir: string; reason?: string } {
  const dir = mkdtempSync(join(tmpdir(), 'svc-full-'));
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=16m', 'tmpfs', dir], { encoding: 'utf8' });
  if (mounted.status === 0) return { dir };
  rmSync(dir, { recursive: true, force: true });
  return { dir, reason: `mounting a tmpfs was refused (${(mounted.stderr || mounted.error?.message || '').trim()}): the full-disk test needs root` };
}

/** Fills the file system with one file until it is full; answers the file to delete. */
function fill(dir: string): string {
  const file = join(dir, 'filler');
  const fd = openSync(file, 'w');
  const chunk = Buffer.alloc(64 * 1024, 1);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
    // The last pages: byte by byte is too slow, smaller chunks are enough.
    const small = Buffer.alloc(512, 1);
    try {
      for (;;) writeSync(fd, small);
    } catch {
      // full
    }
  } finally {
    closeSync(fd);
  }
  return file;
}

async function until(what: string, probe: () => boolean | Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const disk = mountSmallDisk();
if (disk.reason) {
  if (IN_CI) throw new Error(`CI=true: ${disk.reason}`);
  console.warn(`[svc tests] ${disk.reason}: skipped`);
}

describe.runIf(!disk.reason)('SQLite on a full disk [sqlite, small tmpfs]', () => {
  let daemon: TestDaemon;
  let target: Server;
  let admin: string;
  const received = new Map<string, number>();
  let holding = false;
  const held: ServerResponse[] = [];
  const path = join(disk.dir, 'svc.db');

  beforeAll(async () => {
    target = createServer((req, res) => {
      received.set(req.url!, (received.get(req.url!) ?? 0) + 1);
      if (holding) held.push(res);
      else res.writeHead(200).end('ok');
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
    daemon = await startTestDaemon('sqlite', { database: { kind: 'sqlite', url: `sqlite:${path}`, drop: async () => {} }, env: { SVC_NODE_ROLE: 'all' } });
    admin = await daemon.adminToken();
    for (let i = 0; i < CHECKS; i++) {
      const made = await daemon.request('POST', '/orgs/default/checks', {
        token: admin,
        body: { name: `Site ${i}`, type: 'http', intervalSeconds: 10, target: `${url}/${i}`, thresholds: { timeoutMs: 5000 } },
      });
      expect(made.status).toBe(201);
    }
  }, 60_000);
  afterAll(async () => {
    holding = false;
    for (const res of held.splice(0)) res.writeHead(200).end('ok');
    await daemon?.close().catch(() => {});
    await new Promise<void>((resolve) => target?.close(() => resolve()));
    spawnSync('umount', [disk.dir]);
    rmSync(disk.dir, { recursive: true, force: true });
  });

  it('answers 503 naming the full disk, fails /ready, keeps the results, and recovers by itself when space returns', async () => {
    const runner = daemon.runner!;
    // Runs under way when the disk fills: the target holds their requests.
    holding = true;
    await until('two runs in flight', () => held.length >= 2);
    // The write-ahead log emptied, so that the next write has to grow it; then the disk fills.
    const other = new SQLite(path);
    other.pragma('wal_checkpoint(TRUNCATE)');
    other.close();
    const filler = fill(disk.dir);

    const write = await daemon.request('POST', '/orgs/default/checks', {
      token: admin,
      body: { name: 'While full', type: 'http', target: 'http://127.0.0.1:9/' },
    });
    expect(write.status).toBe(503);
    expect(write.headers.get('retry-after')).toBe('5');
    expect(write.body.error).toMatchObject({ code: 'UNAVAILABLE', message: expect.stringContaining('disk is full') });
    expect(daemon.logs.some((line) => line.includes('database unavailable: disk is full'))).toBe(true);
    const ready = await daemon.request('GET', '/ready');
    expect(ready.status).toBe(503);
    expect(ready.body.error.message).toContain('disk is full');
    // Reads still work.
    expect((await daemon.request('GET', '/orgs/default/checks', { token: admin })).status).toBe(200);

    // The runs end while the disk is full: their results wait in memory.
    const released = held.length;
    holding = false;
    for (const res of held.splice(0)) res.writeHead(200).end('ok');
    await until('the finished runs to wait for space', () => runner.resultsWaiting >= released);
    expect(daemon.logs.some((line) => line.includes('cannot write results (disk is full)'))).toBe(true);

    rmSync(filler);
    await until('the waiting results to be written', () => runner.resultsWaiting === 0);
    expect((await daemon.request('GET', '/ready')).status).toBe(200);
    expect(
      (await daemon.request('POST', '/orgs/default/checks', { token: admin, body: { name: 'After', type: 'http', target: 'http://127.0.0.1:9/' } })).status,
    ).toBe(201);
    expect(daemon.logs.filter((line) => line.includes('unexpected error') || line.includes('cannot rollback'))).toEqual([]);

    // Drained: one stored result per request the target served.
    await daemon.close();
    const db = new SQLite(path, { readonly: true });
    try {
      const rows = db
        .prepare(
          `select c.target as target, count(r.at) as results from checks c join check_states s on s.check_uid = c.uid left join check_results r on r.series = s.series where c.slug like 'site-%' group by c.target`,
        )
        .all() as { target: string; results: number }[];
      const stored = Object.fromEntries(rows.map((row) => [new URL(row.target).pathname, row.results]));
      expect(stored).toEqual(Object.fromEntries(Array.from({ length: CHECKS }, (_, i) => [`/${i}`, received.get(`/${i}`) ?? 0])));
    } finally {
      db.close();
    }
  }, 120_000);
});
