import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, sql, SqliteAdapter, SqliteDialect, type DialectAdapter } from 'kysely';
import pg from 'pg';
import { MIGRATIONS } from './migrations/index.js';
import type { Database } from './schema.js';
import { withStatementCache } from './statement-cache.js';

export type DatabaseKind = 'sqlite' | 'postgres';

/** An open database: the query builder and which engine it talks to. */
export interface Db {
  kysely: Kysely<Database>;
  kind: DatabaseKind;
  close(): Promise<void>;
}

// PostgreSQL returns 64-bit integers (COUNT(*) among them) as strings by default.
pg.types.setTypeParser(20, (value) => Number.parseInt(value, 10));

/**
 * Kysely takes no migration lock on SQLite and runs its migrations outside a transaction, assuming
 * one process. Two daemons starting at once on one file would both migrate. SQLite does have
 * transactional DDL: with it, writing the lock row first makes the second daemon wait
 * (busy_timeout) until the first has committed, and then find nothing left to do.
 */
class LockingSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }

  override async acquireMigrationLock(db: Kysely<any>): Promise<void> {
    await sql`update kysely_migration_lock set is_locked = 1 where id = 'migration_lock'`.execute(db);
  }
  override async releaseMigrationLock(db: Kysely<any>): Promise<void> {
    await sql`update kysely_migration_lock set is_locked = 0 where id = 'migration_lock'`.execute(db);
  }
}

class LockingSqliteDialect extends SqliteDialect {
  override createAdapter(): DialectAdapter {
    return new LockingSqliteAdapter();
  }
}

/** Opens `sqlite:<path>` (creating the file and its folder) or a `postgres://` URL. */
export function openDatabase(url: string): Db {
  if (url.startsWith('sqlite:')) {
    const path = url.slice('sqlite:'.length);
    if (path !== ':memory:') mkdirSync(dirname(resolve(path)), { recursive: true });
    const sqlite = new SQLite(path);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('busy_timeout = 5000');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('synchronous = NORMAL');
    const kysely = new Kysely<Database>({ dialect: new LockingSqliteDialect({ database: withStatementCache(sqlite) }) });
    return { kysely, kind: 'sqlite', close: () => kysely.destroy() };
  }
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle client losing its connection must not crash the daemon; the pool replaces it.
  pool.on('error', () => {});
  const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { kysely, kind: 'postgres', close: () => kysely.destroy() };
}

/** Brings the schema up to date. Safe when several daemons start at once on one PostgreSQL. */
export async function migrate(db: Db): Promise<void> {
  const migrator = new Migrator({ db: db.kysely, provider: { getMigrations: async () => MIGRATIONS } });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    throw new Error(`database migration ${failed ?? ''} failed: ${(error as Error).message ?? error}`);
  }
}
