import type { Executor } from '../checks/check-store.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../log.js';
import { EventStream } from './event-stream.js';
import { eventsSince, type OrgEvent } from './org-events.js';
import { ResultWatch } from './result-watch.js';

export interface EventHubOptions {
  /** Open streams this daemon serves at most (SVC_EVENTS_MAX_STREAMS). */
  maxStreams: number;
  /** Open streams one member of an organization may have at once. */
  maxStreamsPerMember: number;
  pollMs: number;
  heartbeatMs: number;
}

/** How far back each poll looks again, for rows committed late or written by a replica whose clock is behind. */
const LOOKBACK_MS = 5_000;
/** Rows of each table one poll reads at most. */
const POLL_LIMIT = 5_000;

/** Why a stream was not opened. */
export type StreamRefusal = 'draining' | 'daemon-full' | 'member-full';

/**
 * The open event streams of this daemon and the one poller that feeds them: while a stream is
 * open it reads the rows written since its last look (by any replica sharing the database) every
 * `pollMs`, and hands each new event to the streams of its organization.
 */
export class EventHub {
  private readonly streams = new Set<EventStream>();
  private readonly perMember = new Map<string, number>();
  private readonly runs = new ResultWatch();
  private cursor: { since: string; seen: Map<string, string> } | undefined;
  private starting: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly db: Executor,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly options: EventHubOptions,
  ) {}

  get size(): number {
    return this.streams.size;
  }

  /**
   * Opens a stream, or says which bound refuses it. Resolves once the poller knows where it
   * stands, so every row written after the answer is delivered.
   */
  async open(
    organizationUid: string,
    userUid: string,
    checks: Set<string> | undefined,
    results: ReadonlyMap<number, string> = new Map(),
  ): Promise<EventStream | StreamRefusal> {
    const memberKey = `${organizationUid}:${userUid}`;
    if (this.closed) return 'draining';
    if (this.streams.size >= this.options.maxStreams) return 'daemon-full';
    if ((this.perMember.get(memberKey) ?? 0) >= this.options.maxStreamsPerMember) return 'member-full';
    const stream = new EventStream(organizationUid, memberKey, checks, this.options.heartbeatMs, results, (closed) => this.forget(closed));
    this.streams.add(stream);
    this.perMember.set(memberKey, (this.perMember.get(memberKey) ?? 0) + 1);
    try {
      await (this.starting ??= this.start());
      if (results.size > 0) await this.runs.follow(this.db, results.keys());
    } catch (error) {
      this.starting = undefined;
      stream.close();
      throw error;
    }
    return stream;
  }

  /** Draining: every stream ends, and the poller stops. */
  close(): void {
    this.closed = true;
    for (const stream of [...this.streams]) stream.close();
    this.stop();
  }

  private forget(stream: EventStream): void {
    if (!this.streams.delete(stream)) return;
    const left = (this.perMember.get(stream.memberKey) ?? 1) - 1;
    if (left > 0) this.perMember.set(stream.memberKey, left);
    else this.perMember.delete(stream.memberKey);
    if (stream.results.size > 0) this.runs.keep(new Set([...this.streams].flatMap((open) => [...open.results.keys()])));
    if (this.streams.size === 0) this.stop();
  }

  private stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.cursor = undefined;
    this.starting = undefined;
  }

  /** Marks what is already stored as seen, then polls. */
  private async start(): Promise<void> {
    const latestChange = await this.db.selectFrom('check_state_changes').select('at').orderBy('uid', 'desc').limit(1).executeTakeFirst();
    const latestIncident = await this.db
      .selectFrom('incidents')
      .select((eb) => eb.fn.max('updated_at').as('at'))
      .executeTakeFirst();
    const latest = [latestChange?.at, latestIncident?.at ?? undefined]
      .filter((at): at is string => typeof at === 'string')
      .sort()
      .pop();
    // From the newest row, or from now when there is none (maintenance is computed, not stored).
    const from = latest ? Date.parse(latest) : this.clock.now().getTime();
    const cursor = { since: new Date(from - LOOKBACK_MS).toISOString(), seen: new Map<string, string>() };
    for (const event of (await eventsSince(this.db, cursor.since, { limit: POLL_LIMIT, now: this.clock.now().getTime() })).events)
      cursor.seen.set(event.id, event.at);
    this.cursor = cursor;
    this.schedule();
  }

  private schedule(): void {
    if (this.closed || this.streams.size === 0) return;
    this.timer = setTimeout(() => void this.poll(), this.options.pollMs);
    this.timer.unref();
  }

  private async poll(): Promise<void> {
    const cursor = this.cursor;
    if (!cursor) return;
    try {
      const { events, full } = await eventsSince(this.db, cursor.since, { limit: POLL_LIMIT, now: this.clock.now().getTime() });
      if (cursor !== this.cursor) return;
      const fresh: OrgEvent[] = [];
      for (const event of events) {
        if (cursor.seen.has(event.id)) continue;
        cursor.seen.set(event.id, event.at);
        fresh.push(event);
      }
      for (const event of fresh) for (const stream of this.streams) stream.push(event);
      if (this.runs.size > 0)
        for (const { series, result } of await this.runs.newRuns(this.db)) for (const stream of this.streams) stream.pushResult(series, result);
      const newest = events.at(-1)?.at;
      if (newest) {
        // Never backwards; past a full read, on from its newest row so the next one makes progress.
        const candidate = full ? newest : new Date(Date.parse(newest) - LOOKBACK_MS).toISOString();
        if (candidate > cursor.since) cursor.since = candidate;
        for (const [id, at] of cursor.seen) if (at < cursor.since) cursor.seen.delete(id);
      }
    } catch (error) {
      this.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'events: reading new state changes and incidents failed; trying again');
    }
    if (cursor === this.cursor) this.schedule();
  }
}
