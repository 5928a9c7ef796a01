/**
 * SQLite copies its write-ahead log back into the database file (a checkpoint) at the commit
 * that finds the log past 1,000 pages, inside that commit, on the committing thread: after a
 * large transaction (a 10,000-check import writes about 40,000 rows), that copy and its sync held
 * the daemon's event loop for 40-65 ms on its own. A large transaction therefore commits with
 * SQLite's automatic checkpoint off, and the checkpoint runs on a thread of its own with its own
 * connection (wal-checkpoint-worker.ts), in PASSIVE mode: it copies what is committed without
 * waiting for, or stopping, a reader or the writer. The automatic checkpoint is on again once it
 * is done; every other commit checkpoints as before. Should the thread fail, the next commit past
 * SQLite's threshold checkpoints, as it always did.
 */
import type SQLite from 'better-sqlite3';
import { WorkerPool, workerFile } from '../workers/worker-pool.js';

/** A transaction that changed this many rows or more commits without the automatic checkpoint. */
export const LARGE_TRANSACTION_ROWS = 5000;
/** SQLite's own threshold of the automatic checkpoint, in pages of the log: restored after a thread's checkpoint. */
const AUTOMATIC_CHECKPOINT_PAGES = 1000;
/** The longest a checkpoint may take on its thread; past it the thread is stopped. */
const CHECKPOINT_DEADLINE_MS = 60_000;

/** What a checkpoint did: the pages in the log, and those now copied into the database file (PASSIVE: up to the oldest reader's). */
export interface CheckpointOutcome {
  logPages: number;
  copiedPages: number;
}

/** How a daemon's SQLite file is checkpointed after large transactions (see the module's comment). */
export class WalCheckpoints {
  readonly #sqlite: SQLite.Database;
  readonly #path: string;
  readonly #entry: URL;
  #running: Promise<void> | undefined;
  #again = false;
  #closed = false;
  #threadRuns = 0;

  /** `entry` is for tests of the fallback only: the thread's compiled module. */
  constructor(sqlite: SQLite.Database, path: string, entry: URL = workerFile(import.meta.url, './wal-checkpoint-worker.js')) {
    this.#sqlite = sqlite;
    this.#path = path;
    this.#entry = entry;
  }

  /** Checkpoints done on the thread of their own so far. */
  get threadRuns(): number {
    return this.#threadRuns;
  }

  /** Before the commit of a large transaction: the commit leaves the log as it is. */
  beforeLargeCommit(): void {
    this.#sqlite.pragma('wal_autocheckpoint = 0');
  }

  /** After it: the log is checkpointed on a thread, and the automatic checkpoint is on again once that is done. */
  afterLargeCommit(): void {
    if (this.#closed) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = this.#checkpointUntilCaughtUp().finally(() => {
      this.#running = undefined;
      if (!this.#closed) this.#sqlite.pragma(`wal_autocheckpoint = ${AUTOMATIC_CHECKPOINT_PAGES}`);
    });
  }

  /** Resolves once no checkpoint thread runs. */
  async idle(): Promise<void> {
    while (this.#running) await this.#running;
  }

  /** Waits for a checkpoint under way; closing the connection then checkpoints what is left. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.idle();
  }

  /** Checkpoints on a thread, again while large commits came meanwhile; the thread ends with the last. */
  async #checkpointUntilCaughtUp(): Promise<void> {
    const pool = new WorkerPool<string, CheckpointOutcome>({ entry: this.#entry, size: 1 });
    try {
      do {
        this.#again = false;
        // A thread that could not start, failed or overran leaves the log to the automatic
        // checkpoint, on again below: the next commit past its threshold copies it, as before.
        const outcome = await pool.run(this.#path, { deadlineMs: CHECKPOINT_DEADLINE_MS });
        if (outcome.ok) this.#threadRuns++;
        else break;
      } while (this.#again && !this.#closed);
    } finally {
      await pool.close();
    }
  }
}
