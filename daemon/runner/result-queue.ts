import type { Db } from '../db/connect.js';
import type { Logger } from '../log.js';
import { writeRecords, type RunRecord } from './result-writer.js';

/** Records are written when this many wait, or this long after the first of them. */
const BATCH_SIZE = 250;
const BATCH_DELAY_MS = 250;

/**
 * Collects finished runs and writes them in batches, one transaction each and one at a time, so
 * that hundreds of runs a second cost a few statements rather than hundreds of transactions.
 */
export class ResultQueue {
  private pending: RunRecord[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
  ) {}

  push(record: RunRecord): void {
    this.pending.push(record);
    if (this.pending.length >= BATCH_SIZE) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), BATCH_DELAY_MS);
  }

  /** Writes everything queued so far; resolves once it is written (or its failure logged). */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending;
    this.pending = [];
    this.writing = this.writing.then(async () => {
      if (batch.length === 0) return;
      try {
        await writeRecords(this.db, batch);
      } catch (error) {
        // The claims stay with this runner until their leases end; then the runs happen again.
        this.logger.error({ err: (error as Error).message, runs: batch.length }, 'runner: writing results failed');
      }
    });
    return this.writing;
  }
}
