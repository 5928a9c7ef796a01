import { PassThrough } from 'node:stream';
import type { CheckResultEvent } from '../../contract/events.js';
import type { ResultView } from '../runner/result-codes.js';
import type { OrgEvent } from './org-events.js';

/**
 * One client's `text/event-stream`: the events of one organization (of some checks when
 * narrowed), each run of the checks it follows run by run, a `: ping` comment every heartbeat
 * so proxies keep it open, and `close()`.
 */
export class EventStream {
  readonly body = new PassThrough();
  private heartbeat: NodeJS.Timeout;
  private closed = false;
  /** Live events held back while the missed ones are replayed. */
  private held: OrgEvent[] | undefined = [];

  constructor(
    readonly organizationUid: string,
    /** Who opened it: `<organization uid>:<user uid>`, for the bound per member. */
    readonly memberKey: string,
    private readonly checks: Set<string> | undefined,
    heartbeatMs: number,
    /** The checks followed run by run (`?results=`): their result series, with their slugs. */
    readonly results: ReadonlyMap<number, string>,
    private readonly onClose: (stream: EventStream) => void,
  ) {
    this.body.write('retry: 2000\n: connected\n\n');
    this.heartbeat = setInterval(() => this.body.write(': ping\n\n'), heartbeatMs);
    this.heartbeat.unref();
    this.body.on('close', () => this.close());
  }

  /** Whether the stream wants this event: of its organization and, when narrowed, of one of its checks. */
  wants(event: OrgEvent): boolean {
    return event.organizationUid === this.organizationUid && (!this.checks || (event.checkSlug !== null && this.checks.has(event.checkSlug)));
  }

  /** A live event: sent now, or after the replay when one is under way. */
  push(event: OrgEvent): void {
    if (!this.wants(event)) return;
    if (this.held) this.held.push(event);
    else this.send(event);
  }

  /**
   * The latest run of a followed check: `check.result`, with no id (runs are not replayed; a
   * client that reconnects reads the figures again).
   */
  pushResult(series: number, result: ResultView): void {
    const slug = this.results.get(series);
    if (slug !== undefined) this.write('check.result', undefined, { slug, ...result } satisfies CheckResultEvent);
  }

  /** Sends the missed events, then the live ones held back meanwhile (each once). */
  replay(events: OrgEvent[]): void {
    const replayed = new Set<string>();
    for (const event of events) {
      if (!this.wants(event)) continue;
      replayed.add(event.id);
      this.send(event);
    }
    this.live(replayed);
  }

  /** Tells the client its `Last-Event-ID` is too old or unknown: it must read the current state again. */
  reset(reason: string): void {
    this.write('reset', undefined, { reason });
    this.live();
  }

  /** Ends the replay: held events go out, and from now on events are sent as they come. */
  live(alreadySent: Set<string> = new Set()): void {
    const held = this.held ?? [];
    this.held = undefined;
    for (const event of held) if (!alreadySent.has(event.id)) this.send(event);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.heartbeat);
    this.body.end();
    this.onClose(this);
  }

  private send(event: OrgEvent): void {
    this.write(event.type, event.id, event.data);
  }

  private write(type: string, id: string | undefined, data: unknown): void {
    if (this.closed) return;
    this.body.write(`event: ${type}\n${id ? `id: ${id}\n` : ''}data: ${JSON.stringify(data)}\n\n`);
  }
}
