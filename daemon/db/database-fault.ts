import type { Executor } from './executor.js';
import { inTransaction } from './in-transaction.js';

/**
 * A database fault that is no bug of ours and passes by itself: PostgreSQL does not answer, or
 * SQLite cannot write its file (disk full, I/O error) or waited out its busy timeout. Callers
 * answer 503 with Retry-After and keep what they could not write.
 */
export interface DatabaseFault {
  /** What an operator reads in the answer and the log: "disk is full", "database does not answer". */
  cause: string;
  /** Whether writes fail while reads may still work (a full disk, an I/O error). */
  writes: boolean;
}

// Codes of connecting to PostgreSQL (a reset of an open connection reads "Connection terminated"); a client's
// own ECONNRESET or EPIPE is not among them.
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
// SQLSTATE: connection exceptions (08...), the server shutting down or starting (57P01-57P03),
// too many connections (53300), disk full (53100), out of memory (53200), read-only standby (25006).
const POSTGRES_UNAVAILABLE = /^(08...|57P0[1-3]|53[123]00|25006)$/;
const CONNECTION_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|connection is insecure|the database system is (starting up|shutting down|in recovery mode)|Client was closed and is not queryable/i;

/** The fault `error` is, or undefined when it is something else (a bug, a constraint, bad input). */
export function databaseFault(error: unknown): DatabaseFault | undefined {
  for (let current = error, depth = 0; current && depth < 5; current = (current as { cause?: unknown }).cause, depth++) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    const text = typeof message === 'string' ? message : '';
    if (typeof code === 'string') {
      if (code === 'SQLITE_FULL' || code === '53100') return { cause: 'disk is full', writes: true };
      if (code.startsWith('SQLITE_IOERR')) return { cause: `the database file cannot be written (${code})`, writes: true };
      if (code === 'SQLITE_READONLY' || code === 'SQLITE_CANTOPEN') return { cause: `the database file cannot be written (${code})`, writes: true };
      if (code.startsWith('SQLITE_BUSY')) return { cause: 'the database stayed locked by another writer past its busy timeout', writes: false };
      if (CONNECTION_CODES.has(code) || POSTGRES_UNAVAILABLE.test(code)) return { cause: 'the database does not answer', writes: false };
    }
    if (CONNECTION_MESSAGES.test(text)) return { cause: 'the database does not answer', writes: false };
  }
  return undefined;
}

/**
 * Whether writes are failing now, as the daemon last saw them: set when a write meets a fault,
 * cleared when one succeeds. `/ready` fails while it is set and a trial write still fails, so a
 * replica that cannot write (a full disk) is taken out of rotation and comes back by itself.
 */
export class WriteHealth {
  private fault: { cause: string; since: number } | undefined;

  /** The fault writes are failing with, and since when (epoch ms); undefined while they work. */
  get failing(): { cause: string; since: number } | undefined {
    return this.fault;
  }

  failed(cause: string, now = Date.now()): void {
    if (!this.fault || this.fault.cause !== cause) this.fault = { cause, since: this.fault?.since ?? now };
  }

  succeeded(): void {
    this.fault = undefined;
  }

  /**
   * Tries one small write (a row inserted and removed in one transaction) when writes were
   * failing: clears the fault when it works, answers the fault's cause when it still fails.
   */
  async probe(db: Executor): Promise<string | undefined> {
    if (!this.fault) return undefined;
    try {
      await inTransaction(db, async (trx) => {
        const now = new Date().toISOString();
        await trx
          .insertInto('parameters')
          .values({ uid: 'svc-write-probe', organization_uid: null, key: 'svc.write-probe', value: JSON.stringify({ value: now }), updated_at: now })
          .execute();
        await trx.deleteFrom('parameters').where('uid', '=', 'svc-write-probe').execute();
      });
      this.succeeded();
      return undefined;
    } catch (error) {
      const fault = databaseFault(error);
      if (fault) this.failed(fault.cause);
      return this.fault?.cause ?? 'a trial write failed';
    }
  }
}
