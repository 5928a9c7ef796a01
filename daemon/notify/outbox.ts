import type { ChannelDelivery } from '../../contract/notification-channels.js';
import { sql, type Selectable } from 'kysely';
import type { Db } from '../db/connect.js';
import type { NotificationOutboxTable } from '../db/schema.js';
import { toPage, type Page, type PageRequest } from '../http/pagination.js';
import { nextAttemptAt } from './backoff.js';
import { anyMessageDue } from './outbox-due.js';
import type { DeliveryError } from './delivery-error.js';

// The outbox's life cycle: pending -> (leased by one daemon) -> sent, or back to pending with a
// later next_attempt_at, or failed once retrying is over. The lease (owner and expiry) is what
// keeps two daemons from sending one message; a daemon killed mid-delivery leaves a lease that
// expires, and the message goes out again (at least once).

export type OutboxRow = Selectable<NotificationOutboxTable>;

const iso = (at: Date, plusSeconds = 0) => new Date(at.getTime() + plusSeconds * 1000).toISOString();

/**
 * Leases up to `limit` due messages to `owner` until now + leaseSeconds, counting the attempt.
 * When none is due (the daemon's usual state), one prepared read of the due index says so and
 * no write is made.
 * A message waits while an earlier one about the same incident to the same destination is still
 * pending, so a service never hears "resolved" before "opened".
 * PostgreSQL skips rows another daemon is leasing this very moment (FOR UPDATE SKIP LOCKED);
 * SQLite has a single writer, so the one statement is enough.
 * Messages of the lanes in `leaveOut` (see `laneOf`) are not leased.
 */
export async function leaseDue(db: Db, owner: string, now: Date, leaseSeconds: number, limit: number, leaveOut: readonly string[] = []): Promise<OutboxRow[]> {
  const at = iso(now);
  if (!(await anyMessageDue(db, 'notification_outbox', at))) return [];
  return db.kysely
    .updateTable('notification_outbox')
    .set((eb) => ({ lease_owner: owner, lease_until: iso(now, leaseSeconds), attempts: eb('attempts', '+', 1), last_attempt_at: at }))
    .where('uid', 'in', (eb) =>
      eb
        .selectFrom('notification_outbox as o')
        .select('o.uid')
        .where('o.status', '=', 'pending')
        .where('o.next_attempt_at', '<=', at)
        .where((w) => w.or([w('o.lease_until', 'is', null), w('o.lease_until', '<=', at)]))
        .where(
          sql<boolean>`not exists (select 1 from notification_outbox e where e.incident_uid = o.incident_uid and e.status = 'pending' and e.uid < o.uid and coalesce(e.channel_uid, e.recipient) = coalesce(o.channel_uid, o.recipient))`,
        )
        .$if(leaveOut.length > 0, (q) => q.where(sql<string>`coalesce(o.channel_uid, '')`, 'not in', leaveOut))
        .orderBy('o.next_attempt_at')
        .limit(limit)
        .$if(db.kind === 'postgres', (q) => q.forUpdate().skipLocked()),
    )
    .returningAll()
    .execute();
}

/** A message's lane: its channel, or `''` for a member's own e-mail (all of which go to one SMTP server). */
export const laneOf = (row: OutboxRow): string => row.channel_uid ?? '';

/** Records a delivery that arrived. */
export async function markSent(db: Db, row: OutboxRow, owner: string, responseCode: number | null, now: Date): Promise<void> {
  await db.kysely
    .updateTable('notification_outbox')
    .set({ status: 'sent', delivered_at: iso(now), last_response_code: responseCode, last_error: null, lease_owner: null, lease_until: null })
    .where('uid', '=', row.uid)
    .where('lease_owner', '=', owner)
    .execute();
}

/**
 * Records a failed attempt: retried after the back-off, or given up when the failure is
 * permanent or the next attempt would fall after created_at + retryForSeconds.
 * Answers whether it will be retried.
 */
export async function markFailed(db: Db, row: OutboxRow, owner: string, error: DeliveryError, now: Date, retryForSeconds: number): Promise<boolean> {
  const next = nextAttemptAt(row, error, now, retryForSeconds);
  const retry = next !== undefined;
  await db.kysely
    .updateTable('notification_outbox')
    .set({
      status: retry ? 'pending' : 'failed',
      next_attempt_at: next ? next.toISOString() : row.next_attempt_at,
      last_response_code: error.responseCode,
      last_error: error.message.slice(0, 500),
      lease_owner: null,
      lease_until: null,
    })
    .where('uid', '=', row.uid)
    .where('lease_owner', '=', owner)
    .execute();
  return retry;
}

/** A delivery as the log answers it: never the payload's secrets (it holds none) nor a lease. */
export type DeliveryView = ChannelDelivery;

const toView = (row: OutboxRow): DeliveryView => ({
  uid: row.uid,
  event: row.event,
  incidentUid: row.incident_uid,
  checkUid: row.check_uid,
  status: row.status,
  attempts: row.attempts,
  lastAttemptAt: row.last_attempt_at,
  nextAttemptAt: row.status === 'pending' ? row.next_attempt_at : null,
  responseCode: row.last_response_code,
  error: row.last_error,
  deliveredAt: row.delivered_at,
  createdAt: row.created_at,
});

/** A channel's delivery log, newest first. */
export async function listDeliveries(db: Db, orgUid: string, channelUid: string, query: PageRequest): Promise<Page<DeliveryView>> {
  let builder = db.kysely.selectFrom('notification_outbox').selectAll().where('organization_uid', '=', orgUid).where('channel_uid', '=', channelUid);
  if (query.cursor) builder = builder.where('uid', '<', query.cursor);
  const rows = await builder
    .orderBy('uid', 'desc')
    .limit(query.limit + 1)
    .execute();
  return toPage(rows, query.limit, toView);
}

/** Sent and failed messages are kept this long for the delivery log, then deleted. */
export const KEEP_DELIVERIES_DAYS = 30;

/** Deletes sent and failed messages older than KEEP_DELIVERIES_DAYS; answers how many. */
export async function pruneDeliveries(db: Db, now: Date): Promise<number> {
  const before = iso(now, -KEEP_DELIVERIES_DAYS * 86400);
  const result = await db.kysely
    .deleteFrom('notification_outbox')
    .where('status', 'in', ['sent', 'failed'])
    .where('created_at', '<', before)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
