import type { Executor } from '../checks/check-store.js';
import { byTimeThenId, eventsSince, eventTime, type OrgEvent } from './org-events.js';

/** How far back a reconnecting client is caught up, in time and in events. */
export const REPLAY_WINDOW_MS = 60 * 60 * 1000;
export const REPLAY_LIMIT = 500;

/**
 * The events of an organization after the one a client saw last (its `Last-Event-ID`), read
 * from the stored rows; or why they cannot be: the id is unknown, older than the window, or
 * more events than the limit followed it.
 */
export async function replayMissed(db: Executor, organizationUid: string, lastEventId: string, now: Date): Promise<{ events: OrgEvent[] } | { reset: string }> {
  const at = await eventTime(db, organizationUid, lastEventId);
  if (!at) return { reset: 'The Last-Event-ID names no event of this organization; read the current state again.' };
  if (Date.parse(at) < now.getTime() - REPLAY_WINDOW_MS) return { reset: 'The Last-Event-ID is older than an hour; read the current state again.' };
  const { events, full } = await eventsSince(db, at, { organizationUid, limit: REPLAY_LIMIT + 1, now: now.getTime() });
  const last = { id: lastEventId, at } as OrgEvent;
  const missed = events.filter((event) => byTimeThenId(event, last) > 0);
  if (full || missed.length > REPLAY_LIMIT) return { reset: `More than ${REPLAY_LIMIT} events were missed; read the current state again.` };
  return { events: missed };
}
