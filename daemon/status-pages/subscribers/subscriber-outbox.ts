import type { Selectable } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { Executor } from '../../db/executor.js';
import { newId } from '../../db/ids.js';
import type { StatusPageMailTable } from '../../db/schema.js';
import { nextAttemptAt } from '../../notify/backoff.js';
import { anyMessageDue } from '../../notify/outbox-due.js';
import { afterCommit } from '../../db/in-transaction.js';
import { messagesQueued } from '../../notify/outbox-bell.js';

// The subscriber mail's life cycle, as the notification outbox's: pending -> leased by one
// daemon -> sent, or back to pending after a back-off, or failed once retrying is over. Each
// message is rendered when it is written; the link a mail carries (confirm or unsubscribe) is
// made when it is sent, so no token is ever stored but as its hash.

export type SubscriberMailRow = Selectable<StatusPageMailTable>;

/** What a mail to subscribers says; the sender adds the unsubscribe link and headers. */
export interface SubscriberMessage {
  subject: string;
  text: string;
}

const iso = (at: Date, plusSeconds = 0) => new Date(at.getTime() + plusSeconds * 1000).toISOString();

const pendingRow = (subscriberUid: string, kind: SubscriberMailRow['kind'], message: SubscriberMessage, now: Date): SubscriberMailRow => ({
  uid: newId(now.getTime()),
  subscriber_uid: subscriberUid,
  kind,
  subject: message.subject,
  text: message.text,
  status: 'pending',
  attempts: 0,
  next_attempt_at: iso(now),
  lease_owner: null,
  lease_until: null,
  last_error: null,
  sent_at: null,
  created_at: iso(now),
});

/**
 * Queues `message` to every confirmed subscriber of the status page `pageUid`, durably: call it
 * with the transaction that made the news, so both commit together. Answers how many mails were queued.
 */
export async function mailSubscribers(db: Executor, pageUid: string, message: SubscriberMessage, now: Date): Promise<number> {
  const subscribers = await db
    .selectFrom('status_page_subscribers')
    .select('uid')
    .where('status_page_uid', '=', pageUid)
    .where('confirmed_at', 'is not', null)
    .execute();
  const rows = subscribers.map((subscriber) => pendingRow(subscriber.uid, 'message', message, now));
  // 13 parameters a row: 500 rows stay under both engines' limits.
  for (let i = 0; i < rows.length; i += 500)
    await db
      .insertInto('status_page_mail')
      .values(rows.slice(i, i + 500))
      .execute();
  // This daemon's mailer sends them as soon as they commit, not at its next poll.
  if (rows.length > 0) afterCommit(db, messagesQueued.status_page_mail);
  return rows.length;
}

/** Queues the mail asking a new subscriber to confirm (the sender adds the link). */
export async function queueConfirmation(db: Executor, subscriberUid: string, message: SubscriberMessage, now: Date): Promise<void> {
  await db
    .insertInto('status_page_mail')
    .values(pendingRow(subscriberUid, 'confirmation', message, now))
    .execute();
  afterCommit(db, messagesQueued.status_page_mail);
}

/** Whether a confirmation to this subscriber is still waiting to go out. */
export async function confirmationPending(db: Executor, subscriberUid: string): Promise<boolean> {
  const row = await db
    .selectFrom('status_page_mail')
    .select('uid')
    .where('subscriber_uid', '=', subscriberUid)
    .where('kind', '=', 'confirmation')
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Leases up to `limit` due mails to `owner` (PostgreSQL skips rows another daemon is leasing).
 * With none due, one prepared read of the due index answers and no write is made.
 */
export async function leaseDueMail(db: Db, owner: string, now: Date, leaseSeconds: number, limit: number): Promise<SubscriberMailRow[]> {
  const at = iso(now);
  if (!(await anyMessageDue(db, 'status_page_mail', at))) return [];
  return db.kysely
    .updateTable('status_page_mail')
    .set((eb) => ({ lease_owner: owner, lease_until: iso(now, leaseSeconds), attempts: eb('attempts', '+', 1) }))
    .where('uid', 'in', (eb) =>
      eb
        .selectFrom('status_page_mail as m')
        .select('m.uid')
        .where('m.status', '=', 'pending')
        .where('m.next_attempt_at', '<=', at)
        .where((w) => w.or([w('m.lease_until', 'is', null), w('m.lease_until', '<=', at)]))
        .orderBy('m.next_attempt_at')
        .limit(limit)
        .$if(db.kind === 'postgres', (q) => q.forUpdate().skipLocked()),
    )
    .returningAll()
    .execute();
}

/** Records a mail that went out (or that has nobody to go to any more). */
export async function markMailSent(db: Db, row: SubscriberMailRow, owner: string, now: Date): Promise<void> {
  await db.kysely
    .updateTable('status_page_mail')
    .set({ status: 'sent', sent_at: iso(now), last_error: null, lease_owner: null, lease_until: null })
    .where('uid', '=', row.uid)
    .where('lease_owner', '=', owner)
    .execute();
}

/** Records a failed attempt: retried after the back-off unless permanent or past `retryForSeconds`. Answers whether it will be retried. */
export async function markMailFailed(
  db: Db,
  row: SubscriberMailRow,
  owner: string,
  failure: { message: string; permanent: boolean },
  now: Date,
  retryForSeconds: number,
): Promise<boolean> {
  const next = nextAttemptAt(row, failure, now, retryForSeconds);
  const retry = next !== undefined;
  await db.kysely
    .updateTable('status_page_mail')
    .set({
      status: retry ? 'pending' : 'failed',
      next_attempt_at: next ? next.toISOString() : row.next_attempt_at,
      last_error: failure.message.slice(0, 500),
      lease_owner: null,
      lease_until: null,
    })
    .where('uid', '=', row.uid)
    .where('lease_owner', '=', owner)
    .execute();
  return retry;
}

/** Sent and failed mails are kept this long, then deleted. */
const KEEP_DAYS = 30;

/** Deletes sent and failed mails older than KEEP_DAYS. */
export async function pruneSubscriberMail(db: Db, now: Date): Promise<void> {
  await db.kysely
    .deleteFrom('status_page_mail')
    .where('status', 'in', ['sent', 'failed'])
    .where('created_at', '<', iso(now, -KEEP_DAYS * 86400))
    .execute();
}
