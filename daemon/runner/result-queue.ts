import type { Db } from '../db/connect.js';
import { databaseFault, type WriteHealth } from '../db/database-fault.js';
import type { Logger } from '../log.js';
import type { Metrics } from '../metrics/metrics.js';
import { onBeat, type Beat } from './beat.js';
import { writeRecords, type RunRecord } from './result-writer.js';

/** Records are written when this many wait, or this long after the first of them. */
const BATCH_SIZE = 250;
const BATCH_DELAY_MS = 250;
/** Records kept after a failed write are tried again in batches of this many. */
const RETRY_BATCH = 2000;
/** The first retry after a failed write, doubling up to the longest. */
const RETRY_FIRST_MS = 500;
const RETRY_LONGEST_MS = 5000;

/** The default of SVC_RUNNER_RESULT_BUFFER. */
export const DEFAULT_RESULT_BUFFER = 100_000;

export interface ResultQueueOptions {
  /** At most this many records wait in memory for the database; past it the oldest are given up. */
  bufferLimit?: number;
  metrics?: Pick<Metrics, 'runnerResultsWaiting' | 'runnerResultsGivenUp'>;
  /** Told when writes fail for a database fault and when they work again (`/ready`). */
  writeHealth?: WriteHealth;
  /**
   * The runner's beat (beat.ts): a batch asks for the beat of its time and is written by
   * `onBeat`, instead of by a timer of its own that would wake the thread once more.
   */
  beat?: Pick<Beat, 'at' | 'now'>;
}

/**
 * Collects finished runs and writes them in batches, one transaction each and one at a time, so
 * that hundreds of runs a second cost a few statements rather than hundreds of transactions.
 *
 * When a batch cannot be written because the database is unavailable (PostgreSQL down, SQLite's
 * disk full), its records are kept, in order, and written when the database answers again, with
 * everything run meanwhile. At most `bufferLimit` wait; past it the oldest are given up, counted
 * and logged. A failure that is no database fault (a bug) is logged and the batch dropped, so
 * one bad record cannot hold up every result behind it.
 */
export class ResultQueue {
  private pending: RunRecord[] = [];
  /** Records whose write failed for a database fault, oldest first. */
  private held: RunRecord[] = [];
  private heldSince = 0;
  private givenUp = 0;
  private retryDelay = RETRY_FIRST_MS;
  private timer: NodeJS.Timeout | undefined;
  /** The beat the records pending now are written on (with a beat). */
  private dueBeat = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  private readonly bufferLimit: number;

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
    private readonly options: ResultQueueOptions = {},
  ) {
    this.bufferLimit = options.bufferLimit ?? DEFAULT_RESULT_BUFFER;
  }

  /** How many records wait in memory for the database. */
  get waiting(): number {
    return this.held.length;
  }

  push(record: RunRecord): void {
    this.pending.push(record);
    if (this.pending.length >= BATCH_SIZE) void this.flush();
    else if (this.pending.length > 1) return;
    else if (this.options.beat) {
      this.dueBeat = onBeat(this.options.beat.now() + BATCH_DELAY_MS);
      this.options.beat.at(this.dueBeat);
    } else this.timer = setTimeout(() => void this.flush(), BATCH_DELAY_MS);
  }

  /** On the runner's beat: writes the batch once it has waited its time. */
  onBeat(beatMs: number): void {
    if (this.pending.length === 0) return;
    if (this.dueBeat <= beatMs) void this.flush();
    else this.options.beat?.at(this.dueBeat);
  }

  /** Writes everything queued so far, and what waited; resolves once written (or kept, or its failure logged). */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending;
    this.pending = [];
    this.writing = this.writing.then(() => this.write(batch));
    return this.writing;
  }

  /** The last flush at a stop: what still cannot be written is lost with the process, and logged as such. */
  async close(): Promise<void> {
    await this.flush();
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    if (this.held.length > 0) {
      this.logger.error(
        { runs: this.held.length },
        `runner: ${this.held.length} results could not be written before stopping (the database is unavailable); they are lost`,
      );
      this.held = [];
      this.options.metrics?.runnerResultsWaiting.set(0);
    }
  }

  private async write(batch: RunRecord[]): Promise<void> {
    const records = this.held.length > 0 ? [...this.held, ...batch] : batch;
    if (records.length === 0) return;
    const hadWaited = this.held.length;
    let done = 0;
    try {
      const size = hadWaited > 0 ? RETRY_BATCH : records.length;
      for (; done < records.length; done += size) await writeRecords(this.db, records.slice(done, done + size));
    } catch (error) {
      const fault = databaseFault(error);
      if (!fault) {
        // The claims stay with this runner until their leases end; then the runs happen again.
        this.logger.error({ err: (error as Error).message, runs: records.length - done }, 'runner: writing results failed');
        this.held = [];
        this.options.metrics?.runnerResultsWaiting.set(0);
        return;
      }
      this.hold(records.slice(done), fault.cause, fault.writes);
      return;
    }
    this.options.writeHealth?.succeeded();
    if (hadWaited > 0) {
      const seconds = Math.round((Date.now() - this.heldSince) / 100) / 10;
      this.logger.warn(
        { runs: hadWaited, waitedSeconds: seconds, givenUp: this.givenUp },
        `runner: the database is back; wrote ${hadWaited} results that waited ${seconds} s${this.givenUp > 0 ? `, ${this.givenUp} were given up past SVC_RUNNER_RESULT_BUFFER` : ''}`,
      );
      this.held = [];
      this.givenUp = 0;
      this.retryDelay = RETRY_FIRST_MS;
      this.options.metrics?.runnerResultsWaiting.set(0);
    }
  }

  private hold(records: RunRecord[], cause: string, writesFail: boolean): void {
    if (this.held.length === 0) {
      this.heldSince = Date.now();
      this.logger.warn({ runs: records.length, cause }, `runner: cannot write results (${cause}); keeping them in memory until the database can be written`);
    }
    if (writesFail) this.options.writeHealth?.failed(cause);
    const over = records.length - this.bufferLimit;
    if (over > 0) {
      this.givenUp += over;
      this.options.metrics?.runnerResultsGivenUp.inc(over);
      this.logger.error(
        { runs: over, limit: this.bufferLimit, cause },
        `runner: gave up the ${over} oldest waiting results: more than SVC_RUNNER_RESULT_BUFFER (${this.bufferLimit}) wait for the database`,
      );
      records = records.slice(over);
    }
    this.held = records;
    this.options.metrics?.runnerResultsWaiting.set(records.length);
    if (!this.retryTimer) {
      this.retryTimer = setTimeout(() => {
        this.retryTimer = undefined;
        void this.flush();
      }, this.retryDelay);
      this.retryTimer.unref?.();
      this.retryDelay = Math.min(this.retryDelay * 2, RETRY_LONGEST_MS);
    }
  }
}
