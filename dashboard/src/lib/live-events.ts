import { createParser } from 'eventsource-parser';
import { openStream } from '../api/client';
import { ApiError } from '../api/errors';
import type { OrgEventData } from '../api/types';
import { sessionState, subscribeSession } from './session';

/** One event of the organization's stream, by its name (`reset` is told as a resync instead). */
export type LiveEvent = { [Name in Exclude<keyof OrgEventData, 'reset'>]: { name: Name; data: OrgEventData[Name] } }[Exclude<keyof OrgEventData, 'reset'>];

/** `live`: events arrive; `down`: the stream is away (views read the API every few seconds); `connecting` at first. */
export type LiveStatus = 'connecting' | 'live' | 'down';

/** A view following the stream. */
export interface LiveSubscriber {
  /** Checks it follows run by run (`check.result`). */
  results: readonly string[];
  onEvent(event: LiveEvent): void;
  /** The stream is live after a gap (or said `reset`): events may have been missed, so read again. */
  onResync(): void;
  onStatus(status: LiveStatus): void;
}

/** The server follows at most this many checks run by run on one stream. */
const MAX_RESULT_CHECKS = 500;
/** And the address stays well under what servers and proxies accept: past this, later checks are not followed run by run. */
const MAX_RESULTS_CHARS = 4_000;
const FIRST_RETRY_MS = 2_000;
const MAX_RETRY_MS = 30_000;
/** Busy (429) or away: wait at least this long before trying again. */
const REFUSED_RETRY_MS = 10_000;
/** No byte for this long (the server sends `: ping` every 15 s): the connection is dead. */
const SILENCE_MS = 45_000;
/** An answer must come this soon, or the attempt counts as failed. */
const CONNECT_TIMEOUT_MS = 10_000;
/** After the last view leaves, the stream stays open this long for the next page. */
const LINGER_MS = 5_000;
/** A tab hidden this long lets its stream go (it is opened again when shown), freeing the member's place. */
const HIDDEN_CLOSE_MS = 60_000;
/** Views joining or leaving within this time change the followed checks once. */
const RESHAPE_MS = 100;
const EVENT_NAMES = new Set<string>([
  'check.state',
  'check.result',
  'incident.opened',
  'incident.acknowledged',
  'incident.resolved',
  'maintenance.started',
  'maintenance.ended',
]);

/**
 * The one event stream of an organization in this tab, shared by every view that follows it:
 * read with fetch (the session is a bearer token, which `EventSource` cannot send), opened again
 * after a drop with the last event's id so the server replays what was missed, and reopened when
 * the checks followed run by run change.
 */
class LiveConnection {
  status: LiveStatus = 'connecting';
  private readonly subscribers = new Set<LiveSubscriber>();
  private abort: AbortController | undefined;
  private lastEventId: string | undefined;
  /** The `?results=` of the open connection. */
  private following = '';
  private retryMs = FIRST_RETRY_MS;
  /** Whether views may have missed events since the stream was last live: at first, and after a drop. */
  private gap = true;
  private retryTimer: number | undefined;
  private lingerTimer: number | undefined;
  private reshapeTimer: number | undefined;
  private hiddenTimer: number | undefined;

  constructor(
    private readonly org: string,
    private readonly onIdle: () => void,
  ) {}

  add(subscriber: LiveSubscriber): void {
    this.subscribers.add(subscriber);
    window.clearTimeout(this.lingerTimer);
    subscriber.onStatus(this.status);
    if (!this.abort && this.retryTimer === undefined) void this.connect();
    else this.reshape();
  }

  remove(subscriber: LiveSubscriber): void {
    this.subscribers.delete(subscriber);
    if (this.subscribers.size > 0) {
      this.reshape();
      return;
    }
    window.clearTimeout(this.lingerTimer);
    this.lingerTimer = window.setTimeout(() => {
      if (this.subscribers.size > 0) return;
      this.close();
      this.onIdle();
    }, LINGER_MS);
  }

  /** The tab was hidden or shown. */
  visibility(visible: boolean): void {
    window.clearTimeout(this.hiddenTimer);
    if (!visible) {
      this.hiddenTimer = window.setTimeout(() => {
        this.close();
        this.gap = true;
        this.setStatus('down');
      }, HIDDEN_CLOSE_MS);
      return;
    }
    if (!this.abort && this.subscribers.size > 0) {
      this.retryMs = FIRST_RETRY_MS;
      void this.connect();
    }
  }

  /** The session changed: a stream opened with the former one must not go on. */
  restart(): void {
    this.close();
    this.gap = true;
    this.lastEventId = undefined;
    if (this.subscribers.size > 0 && sessionState().token) void this.connect();
    else this.setStatus('down');
  }

  close(): void {
    window.clearTimeout(this.retryTimer);
    window.clearTimeout(this.reshapeTimer);
    this.retryTimer = undefined;
    const abort = this.abort;
    this.abort = undefined;
    abort?.abort();
  }

  private wanted(): string {
    const slugs = new Set<string>();
    for (const subscriber of this.subscribers) for (const slug of subscriber.results) slugs.add(slug);
    let query = '';
    for (const slug of [...slugs].sort().slice(0, MAX_RESULT_CHECKS)) {
      if (query.length + slug.length + 1 > MAX_RESULTS_CHARS) break;
      query += query ? `,${slug}` : slug;
    }
    return query;
  }

  /** Opens the stream again when the followed checks changed (the replay covers the moment between). */
  private reshape(): void {
    window.clearTimeout(this.reshapeTimer);
    this.reshapeTimer = window.setTimeout(() => {
      if (this.abort && this.wanted() !== this.following) void this.connect();
    }, RESHAPE_MS);
  }

  private setStatus(status: LiveStatus): void {
    if (status === this.status) return;
    this.status = status;
    for (const subscriber of [...this.subscribers]) subscriber.onStatus(status);
  }

  private async connect(): Promise<void> {
    window.clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.abort?.abort();
    const abort = new AbortController();
    this.abort = abort;
    // Checks followed from now on may have run since their view read them, before this
    // connection follows them: the views read again once it is open (runs are not replayed).
    const before = new Set(this.following.split(','));
    this.following = this.wanted();
    const followsMore = this.following !== '' && this.following.split(',').some((slug) => !before.has(slug));
    let refusal: ApiError | undefined;
    try {
      const timeout = window.setTimeout(() => abort.abort(), CONNECT_TIMEOUT_MS);
      const response = await openStream(`/orgs/${encodeURIComponent(this.org)}/events`, {
        query: { results: this.following || undefined },
        headers: this.lastEventId ? { 'last-event-id': this.lastEventId } : {},
        signal: abort.signal,
      }).finally(() => window.clearTimeout(timeout));
      if (abort !== this.abort) return;
      this.retryMs = FIRST_RETRY_MS;
      this.setStatus('live');
      if (this.gap || followsMore) {
        this.gap = false;
        this.resync();
      }
      await this.read(response, abort);
    } catch (error) {
      if (error instanceof ApiError && error.status > 0) refusal = error;
    }
    // Closed on purpose, or replaced by a newer connection.
    if (abort !== this.abort) return;
    this.abort = undefined;
    this.gap = true;
    this.setStatus('down');
    // The session ended: the sign-in page takes over.
    if (refusal?.status === 401) return;
    const wait = refusal ? Math.max(this.retryMs, REFUSED_RETRY_MS) : this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS);
    this.retryTimer = window.setTimeout(() => {
      this.retryTimer = undefined;
      if (this.subscribers.size > 0 && document.visibilityState === 'visible') void this.connect();
    }, wait);
  }

  /** Reads events until the stream ends, breaks, or stays silent too long. */
  private async read(response: Response, abort: AbortController): Promise<void> {
    const parser = createParser({
      onEvent: (message) => {
        if (abort !== this.abort) return;
        if (message.id) this.lastEventId = message.id;
        const name = message.event ?? 'message';
        if (name === 'reset') {
          this.resync();
          return;
        }
        if (!EVENT_NAMES.has(name)) return;
        let data: unknown;
        try {
          data = JSON.parse(message.data);
        } catch {
          return;
        }
        const event = { name, data } as LiveEvent;
        for (const subscriber of [...this.subscribers]) subscriber.onEvent(event);
      },
    });
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let silence = window.setTimeout(() => abort.abort(), SILENCE_MS);
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        window.clearTimeout(silence);
        silence = window.setTimeout(() => abort.abort(), SILENCE_MS);
        parser.feed(decoder.decode(value, { stream: true }));
      }
    } finally {
      window.clearTimeout(silence);
      void reader.cancel().catch(() => undefined);
    }
  }

  private resync(): void {
    for (const subscriber of [...this.subscribers]) subscriber.onResync();
  }
}

const connections = new Map<string, LiveConnection>();

document.addEventListener('visibilitychange', () => {
  for (const connection of connections.values()) connection.visibility(document.visibilityState === 'visible');
});

let streamToken = sessionState().token;
subscribeSession(() => {
  const token = sessionState().token;
  if (token === streamToken) return;
  streamToken = token;
  for (const connection of connections.values()) connection.restart();
});

/** Follows the live events of an organization until the returned function is called. */
export function subscribeLive(org: string, subscriber: LiveSubscriber): () => void {
  let connection = connections.get(org);
  if (!connection) {
    const made = new LiveConnection(org, () => {
      if (connections.get(org) === made) connections.delete(org);
    });
    connection = made;
    connections.set(org, made);
  }
  const joined = connection;
  joined.add(subscriber);
  return () => joined.remove(subscriber);
}
