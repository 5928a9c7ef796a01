import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  Migrator,
  PostgresDialect,
  SqliteAdapter,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type DialectAdapter,
  type Driver,
  type QueryResult,
  type SqliteDialectConfig,
} from 'kysely';
import type pg from 'pg';
import { MIGRATIONS } from './migrations/index.js';
import { postgresReader, sqliteReader, type ReadOne } from './prepared-reader.js';
import type { Database } from './schema.js';
import { ensureResultPartitions } from './result-partitions.js';
import { withStatementCache } from './statement-cache.js';
import { turnIfLong } from './statement-spans.js';
import { LARGE_TRANSACTION_ROWS, WalCheckpoints } from './wal-checkpoints.js';
import { VERSION } from '../../contract/version.js';
import type { Executor } from './executor.js';

export type DatabaseKind = 'sqlite' | 'postgres';

/** An open database: the query builder, which engine it talks to, and its prepared reads. */
export interface Db {
  kysely: Executor;
  kind: DatabaseKind;
  /** Runs a prepared read (see prepared-read.ts): for reads made on every request. */
  readOne: ReadOne;
  /** PostgreSQL: connections of the pool, for metrics (SQLite has one connection and no pool). */
  poolStats?(): { total: number; idle: number; waiting: number };
  /** SQLite (a file): how large transactions are checkpointed, off the daemon's thread (wal-checkpoints.ts). */
  walCheckpoints?: WalCheckpoints;
  close(): Promise<void>;
}

/**
 * The PostgreSQL driver, loaded when a daemon opens PostgreSQL (a SQLite daemon never holds it).
 * It is CommonJS, so `require` loads it at once and opening a database stays synchronous.
 */
function postgresDriver(): typeof pg {
  const driver = createRequire(import.meta.url)('pg') as typeof pg;
  // PostgreSQL returns 64-bit integers (COUNT(*) among them) as strings by default.
  driver.types.setTypeParser(20, (value) => Number.parseInt(value, 10));
  return driver;
}

/**
 * Every SQLite transaction starts with BEGIN IMMEDIATE, taking the write lock at once. With
 * Kysely's plain BEGIN, a transaction that read first and wrote second fails at once with
 * "database is locked" when another process committed in between (WAL mode cannot wait for a
 * stale snapshot); taking the lock first makes it wait instead.
 *
 * No wait holds the thread: SQLite's own busy handler sleeps inside the call, in steps growing
 * to 100 ms, and the daemon's event loop (its probes and requests) would stop meanwhile, and
 * with it a transaction of this process that holds the lock between two statements (see
 * statement-spans.ts). The connection's busy_timeout is 0; a BEGIN IMMEDIATE, or a statement
 * outside a transaction, that finds the lock taken is tried again after a pause of 1 to 10 ms,
 * up to BUSY_TIMEOUT_MS.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  readonly #paced = new WeakMap<DatabaseConnection, PacedConnection>();
  readonly #checkpoints: WalCheckpoints | undefined;

  constructor(settings: SqliteDialectConfig, checkpoints: WalCheckpoints | undefined) {
    super(settings);
    this.#checkpoints = checkpoints;
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await super.acquireConnection();
    let paced = this.#paced.get(connection);
    if (!paced) {
      paced = new PacedConnection(connection);
      this.#paced.set(connection, paced);
    }
    return paced;
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
    (connection as PacedConnection).inTransaction = true;
    (connection as PacedConnection).rowsChanged = 0;
  }

  /** A large transaction's commit leaves the checkpoint to a thread of its own (wal-checkpoints.ts). */
  override async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const large = this.#checkpoints !== undefined && (connection as PacedConnection).rowsChanged >= LARGE_TRANSACTION_ROWS;
    if (large) this.#checkpoints!.beforeLargeCommit();
    try {
      await connection.executeQuery(CompiledQuery.raw('commit'));
    } finally {
      (connection as PacedConnection).inTransaction = false;
      if (large) this.#checkpoints!.afterLargeCommit();
    }
  }

  /**
   * SQLite rolls a transaction back by itself on some errors (a full disk, an I/O error); the
   * ROLLBACK that follows would then fail with "no transaction is active" and hide the cause.
   */
  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await connection.executeQuery(CompiledQuery.raw('rollback'));
    } catch (error) {
      if (!/no transaction is active/.test((error as Error).message)) throw error;
    } finally {
      (connection as PacedConnection).inTransaction = false;
    }
  }
}

/**
 * The SQLite connection as the driver hands it out: each statement gives the event loop a turn
 * when the statements before it have held the loop long enough (statement-spans.ts), and one
 * outside a transaction that finds the write lock taken waits for it without holding the thread.
 */
class PacedConnection implements DatabaseConnection {
  inTransaction = false;
  /** Rows the transaction under way has inserted, updated or deleted so far. */
  rowsChanged = 0;

  constructor(private readonly connection: DatabaseConnection) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const turn = turnIfLong();
    if (turn) await turn;
    // Inside a transaction the write lock is held already (BEGIN IMMEDIATE).
    if (this.inTransaction) {
      const result = await this.connection.executeQuery<R>(query);
      if (result.numAffectedRows !== undefined) this.rowsChanged += Number(result.numAffectedRows);
      return result;
    }
    const deadline = Date.now() + BUSY_TIMEOUT_MS;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.connection.executeQuery<R>(query);
      } catch (error) {
        if (!isBusy(error) || Date.now() >= deadline) throw error;
      }
      await delay(Math.min(attempt, 10));
    }
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.connection.streamQuery<R>(query, chunkSize);
  }
}

/**
 * Kysely runs SQLite migrations outside a transaction, assuming one process. SQLite does have
 * transactional DDL: in one immediate transaction, a second daemon starting at once on the same
 * file waits until the first has migrated, then finds nothing left to do.
 */
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

class ConcurrentSafeSqliteDialect extends SqliteDialect {
  constructor(
    private readonly settings: SqliteDialectConfig,
    private readonly checkpoints: WalCheckpoints | undefined,
  ) {
    super(settings);
  }
  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.settings, this.checkpoints);
  }
  override createAdapter(): DialectAdapter {
    return new TransactionalDdlSqliteAdapter();
  }
}

/**
 * Opens `sqlite:<path>` (creating the file and its folder) or a `postgres://` URL. On PostgreSQL,
 * `preparedStatements` (default true) names the prepared reads so each connection plans them once.
 */
export function openDatabase(url: string, options: { preparedStatements?: boolean } = {}): Db {
  if (url.startsWith('sqlite:')) {
    const path = url.slice('sqlite:'.length);
    const sqlite = openSqliteFile(path);
    sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    switchToWriteAheadLog(sqlite);
    // From here on, waits for the write lock are the driver's, off the thread (ImmediateSqliteDriver).
    sqlite.pragma('busy_timeout = 0');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('synchronous = NORMAL');
    const checkpoints = path === ':memory:' ? undefined : new WalCheckpoints(sqlite, resolve(path));
    const kysely = new Kysely<Database>({ dialect: new ConcurrentSafeSqliteDialect({ database: withStatementCache(sqlite) }, checkpoints) });
    const reader = sqliteReader(path, kysely);
    return {
      kysely,
      kind: 'sqlite',
      readOne: reader.readOne,
      walCheckpoints: checkpoints,
      close: async () => {
        await checkpoints?.close();
        reader.close();
        await kysely.destroy();
      },
    };
  }
  const pool = new (postgresDriver().Pool)({ connectionString: url, max: 10 });
  // A client losing its connection must not crash the daemon. Idle, the pool replaces it. Lent
  // out (a transaction between statements), the pool listens no more: the client's next
  // statement fails instead, and the pool drops it when it comes back.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    kysely,
    kind: 'postgres',
    readOne: postgresReader(pool, kysely, { named: options.preparedStatements ?? true }).readOne,
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    close: () => kysely.destroy(),
  };
}

const BUSY_TIMEOUT_MS = 5000;

/** SQLite's answer when another connection holds the lock it needs. */
const isBusy = (error: unknown): boolean => String((error as { code?: unknown }).code).startsWith('SQLITE_BUSY');

/**
 * Switches the file to WAL mode. While another daemon opening the same new file switches it too,
 * SQLite answers "database is locked" at once, without waiting out busy_timeout: the switch is
 * tried again until that timeout has passed (waiting synchronously: this runs once, at start-up).
 */
function switchToWriteAheadLog(sqlite: SQLite.Database): void {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (;;) {
    try {
      sqlite.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      if (!isBusy(error) || Date.now() > deadline) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
    }
  }
}

/**
 * Creates a folder and its missing parents one level at a time. Node's own recursive mkdir spins
 * forever on some special file systems (a path under /proc), which would hang start-up.
 */
function makeFolders(dir: string): void {
  const missing: string[] = [];
  for (let at = dir; !existsSync(at); at = dirname(at)) {
    if (dirname(at) === at) break;
    missing.unshift(at);
  }
  for (const folder of missing) mkdirSync(folder);
}

/**
 * Makes the database file readable by its owner only (0600), creating it so when missing: it
 * holds password hashes and encrypted secrets. SQLite gives its `-wal` and `-shm` files the
 * database file's mode; any left from an earlier start are tightened too.
 */
function ownerOnly(full: string): void {
  if (!existsSync(full)) closeSync(openSync(full, 'a', 0o600));
  for (const file of [full, `${full}-wal`, `${full}-shm`]) {
    try {
      chmodSync(file, 0o600);
    } catch (error) {
      // A missing -wal or -shm is fine; a file of another user is left as it is (it opens or fails below).
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' && (error as NodeJS.ErrnoException).code !== 'EPERM') throw error;
    }
  }
}

/** Opens (creating if needed) a SQLite file; a path it cannot use is named in the error. */
function openSqliteFile(path: string): SQLite.Database {
  if (path === ':memory:') return new SQLite(path);
  const full = resolve(path);
  try {
    makeFolders(dirname(full));
    ownerOnly(full);
    const sqlite = new SQLite(full);
    // Reading the schema touches the file: a path that opens but cannot be read or written fails here, once.
    sqlite.pragma('schema_version');
    return sqlite;
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new Error(`cannot open the SQLite database at ${full} (${reason}): check that the folder exists or can be created, and is writable by this user`);
  }
}

/**
 * Refuses a database that a newer svc has migrated: running old code on a newer schema could
 * corrupt it, and Kysely's own error ("corrupted migrations") does not say what to do.
 */
async function refuseNewerSchema(db: Db): Promise<void> {
  let executed: { name: string }[];
  try {
    executed = (await db.kysely
      .selectFrom('kysely_migration' as never)
      .select('name' as never)
      .execute()) as { name: string }[];
  } catch {
    return; // a fresh database: no migration table yet
  }
  const unknown = executed.map((row) => row.name).filter((name) => !(name in MIGRATIONS));
  if (unknown.length > 0) {
    throw new Error(
      `this database was written by a newer version of svc (it has migration ${unknown.sort().at(-1)}, unknown to this version ${VERSION}); run that version or a newer one`,
    );
  }
}

/**
 * Brings the schema up to date, and on PostgreSQL makes sure the result partitions of the coming
 * days exist. Safe when several daemons start at once on one PostgreSQL.
 */
export async function migrate(db: Db): Promise<void> {
  await refuseNewerSchema(db);
  const migrator = new Migrator({ db: db.kysely, provider: { getMigrations: async () => MIGRATIONS } });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    throw new Error(`database migration ${failed ?? ''} failed: ${(error as Error).message ?? error}`);
  }
  if (db.kind === 'postgres') await ensureResultPartitions(db.kysely, Date.now());
}
