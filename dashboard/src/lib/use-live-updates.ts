import { useEffect, useRef, useState } from 'preact/hooks';
import type { ApiError } from '../api/errors';
import { type LiveEvent, type LiveStatus, subscribeLive } from './live-events';

/** How often a visible view reads the API while the live events are away. */
export const POLL_MS = 5_000;
/** Events close together make one read: the first waits this long for the others. */
const GATHER_MS = 250;
/** A view is read again at most once a second however many events come. */
const MIN_REFRESH_GAP_MS = 1_000;
/** Figures only a run changes a little (uptime percentages, run counts) are read again at most once a minute. */
const LATER_MS = 60_000;

export interface LiveUpdates {
  /** Checks followed run by run (`check.result`): the checks the view shows. */
  results?: readonly string[];
  /** Changes made in place from an event (a run's figures), with no request. */
  onEvent?(event: LiveEvent): void;
  /** Whether an event makes what the view shows stale: read again `now` (within a second) or `later` (within a minute). */
  stale(event: LiveEvent): 'now' | 'later' | undefined;
  /** Reads what the view shows again. */
  refresh(): void;
  /** The error the view's last read ended with, if any: a passing one (network, 429, 5xx) is read again every few seconds, live stream or not. */
  error?: ApiError;
}

/** An error another read may not meet: the API unreachable, busy (429) or failing (5xx). */
export const isPassing = (error: ApiError | undefined): boolean => error !== undefined && (error.status === 0 || error.status === 429 || error.status >= 500);

/**
 * Keeps a view current from the organization's live events: no request while nothing happens,
 * a read when an event says the view is stale, and, while the stream is down (refused, network
 * gone) or the view's last read failed in passing, the former reading every few seconds of a
 * visible tab until it is back. (A view whose first read failed would otherwise wait for an
 * event that may not come.) Answers the stream's status, for the view to show.
 */
export function useLiveUpdates(org: string, updates: LiveUpdates): LiveStatus {
  const latest = useRef(updates);
  latest.current = updates;
  const [status, setStatus] = useState<LiveStatus>('connecting');
  const resultsKey = (updates.results ?? []).join(',');

  useEffect(() => {
    let current: LiveStatus = 'connecting';
    let lastRefresh = Date.now();
    let timer: number | undefined;
    let dueAt = Number.POSITIVE_INFINITY;
    const refresh = () => {
      window.clearTimeout(timer);
      timer = undefined;
      dueAt = Number.POSITIVE_INFINITY;
      lastRefresh = Date.now();
      latest.current.refresh();
    };
    const refreshWithin = (ms: number) => {
      const at = Date.now() + Math.max(ms, GATHER_MS, lastRefresh + MIN_REFRESH_GAP_MS - Date.now());
      if (at >= dueAt) return;
      window.clearTimeout(timer);
      dueAt = at;
      timer = window.setTimeout(refresh, at - Date.now());
    };
    const unsubscribe = subscribeLive(org, {
      results: resultsKey ? resultsKey.split(',') : [],
      onEvent(event) {
        latest.current.onEvent?.(event);
        const stale = latest.current.stale(event);
        if (stale === 'now') refreshWithin(GATHER_MS);
        else if (stale === 'later') refreshWithin(lastRefresh + LATER_MS - Date.now());
      },
      onResync: refresh,
      onStatus(next) {
        current = next;
        setStatus(next);
      },
    });
    const poll = window.setInterval(() => {
      if ((current === 'down' || isPassing(latest.current.error)) && document.visibilityState === 'visible') refresh();
    }, POLL_MS);
    return () => {
      unsubscribe();
      window.clearInterval(poll);
      window.clearTimeout(timer);
    };
  }, [org, resultsKey]);

  return status;
}
