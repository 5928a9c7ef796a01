import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrate, openDatabase } from '../../../daemon/db/connect.js';

const mode = (path: string) => statSync(path).mode & 0o777;

// SQLite only: the PostgreSQL server keeps its own files.
describe('the SQLite database file and its -wal and -shm are readable by their owner only', () => {
  it('creates svc.db, svc.db-wal and svc.db-shm 0600 whatever the umask', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'svc-mode-')), 'data', 'svc.db');
    const previous = process.umask(0o022);
    try {
      const db = openDatabase(`sqlite:${path}`);
      await migrate(db);
      await db.kysely
        .insertInto('organizations')
        .values({ uid: 'o1', slug: 'acme', name: 'Acme', member_limit: null, created_at: new Date().toISOString() })
        .execute();
      for (const file of [path, `${path}-wal`, `${path}-shm`]) expect(mode(file).toString(8), file).toBe('600');
      await db.close();
    } finally {
      process.umask(previous);
    }
  });

  it('tightens a database file an earlier version left 0644', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-mode-'));
    const path = join(dir, 'svc.db');
    writeFileSync(path, '', { mode: 0o644 });
    writeFileSync(`${path}-wal`, '', { mode: 0o644 });
    const db = openDatabase(`sqlite:${path}`);
    await migrate(db);
    for (const file of [path, `${path}-wal`, `${path}-shm`]) expect(mode(file).toString(8), file).toBe('600');
    await db.close();
  });
});
