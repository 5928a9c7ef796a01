/**
 * The checkpoint thread (wal-checkpoints.ts): copies a SQLite file's write-ahead log into the
 * database file with a connection of its own, in PASSIVE mode, and reports what it did.
 */
import SQLite from 'better-sqlite3';
import { serveWorker } from '../workers/serve-worker.js';
import type { CheckpointOutcome } from './wal-checkpoints.js';

serveWorker((path: string): CheckpointOutcome => {
  const connection = new SQLite(path, { fileMustExist: true });
  try {
    const [row] = connection.pragma('wal_checkpoint(PASSIVE)') as Array<{ log: number; checkpointed: number }>;
    return { logPages: row.log, copiedPages: row.checkpointed };
  } finally {
    connection.close();
  }
});
