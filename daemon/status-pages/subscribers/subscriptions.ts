import type { Subscriber, SubscriberCounts } from '../../../contract/status-pages.js';
import { randomToken, sha256 } from '../../crypto/tokens.js';
import type { Executor } from '../../db/executor.js';
import { inTransaction } from '../../db/in-transaction.js';
import { newId } from '../../db/ids.js';
import { confirmationPending, queueConfirmation, type SubscriberMessage } from './subscriber-outbox.js';

/** How long a confirmation link works. */
export const CONFIRM_DAYS = 7;

/** The page a subscription link belongs to (as the link names it). */
export interface PageOfLink {
  orgSlug: string;
  pageSlug: string;
}

/**
 * Subscribes `email` to the page and queues the confirmation mail, unless the address is
 * confirmed already (then nothing happens) or a confirmation to it is still waiting to go out.
 * The caller answers the same either way, so nobody learns whether an address is subscribed.
 */
export async function subscribe(db: Executor, pageUid: string, email: string, confirmation: SubscriberMessage, now: Date): Promise<void> {
  const key = email.toLowerCase();
  await inTransaction(db, async (trx) => {
    await trx
      .insertInto('status_page_subscribers')
      .values({
        uid: newId(now.getTime()),
        status_page_uid: pageUid,
        email,
        email_key: key,
        confirm_token_hash: null,
        confirm_sent_at: null,
        confirmed_at: null,
        created_at: now.toISOString(),
      })
      .onConflict((oc) => oc.columns(['status_page_uid', 'email_key']).doNothing())
      .execute();
    const subscriber = await trx
      .selectFrom('status_page_subscribers')
      .select(['uid', 'confirmed_at'])
      .where('status_page_uid', '=', pageUid)
      .where('email_key', '=', key)
      .executeTakeFirstOrThrow();
    if (subscriber.confirmed_at || (await confirmationPending(trx, subscriber.uid))) return;
    await queueConfirmation(trx, subscriber.uid, confirmation, now);
  });
}

/** A new confirmation token for the subscriber (the newest link is the one that works); only its hash is kept. */
export async function issueConfirmToken(db: Executor, subscriberUid: string, now: Date): Promise<string> {
  const token = randomToken();
  await db
    .updateTable('status_page_subscribers')
    .set({ confirm_token_hash: sha256(token), confirm_sent_at: now.toISOString() })
    .where('uid', '=', subscriberUid)
    .execute();
  return token;
}

/** A new unsubscribe token for one mail to the subscriber; only its hash is kept, until the subscription ends. */
export async function issueUnsubscribeToken(db: Executor, subscriberUid: string, now: Date): Promise<string> {
  const token = randomToken();
  await db
    .insertInto('status_page_unsubscribe_tokens')
    .values({ token_hash: sha256(token), subscriber_uid: subscriberUid, created_at: now.toISOString() })
    .execute();
  return token;
}

/** Limits a subscriber query to the page a link names. */
const onPage = (db: Executor, page: PageOfLink) =>
  db
    .selectFrom('status_page_subscribers as s')
    .innerJoin('status_pages as p', 'p.uid', 's.status_page_uid')
    .innerJoin('organizations as o', 'o.uid', 'p.organization_uid')
    .where('o.slug', '=', page.orgSlug)
    .where('p.slug', '=', page.pageSlug);

/** The page's title when `token` is a working confirmation link of it; undefined otherwise. */
export async function findConfirmation(db: Executor, page: PageOfLink, token: string, now: Date): Promise<{ uid: string; pageTitle: string } | undefined> {
  const since = new Date(now.getTime() - CONFIRM_DAYS * 86_400_000).toISOString();
  const row = await onPage(db, page)
    .select(['s.uid', 'p.title'])
    .where('s.confirm_token_hash', '=', sha256(token))
    .where('s.confirm_sent_at', '>', since)
    .executeTakeFirst();
  return row && { uid: row.uid, pageTitle: row.title };
}

/** Confirms the subscription a working confirmation link names; false when the link does not work. */
export async function confirmSubscription(db: Executor, page: PageOfLink, token: string, now: Date): Promise<boolean> {
  const found = await findConfirmation(db, page, token, now);
  if (!found) return false;
  await db.updateTable('status_page_subscribers').set({ confirmed_at: now.toISOString(), confirm_token_hash: null }).where('uid', '=', found.uid).execute();
  return true;
}

/** The subscriber an unsubscribe link names, with the page's title; undefined when it names none. */
export async function findUnsubscription(db: Executor, page: PageOfLink, token: string): Promise<{ uid: string; pageTitle: string } | undefined> {
  const row = await onPage(db, page)
    .innerJoin('status_page_unsubscribe_tokens as t', 't.subscriber_uid', 's.uid')
    .select(['s.uid', 'p.title'])
    .where('t.token_hash', '=', sha256(token))
    .executeTakeFirst();
  return row && { uid: row.uid, pageTitle: row.title };
}

/** Ends the subscription an unsubscribe link names (its address, tokens and queued mail go with it); false when it names none. */
export async function unsubscribe(db: Executor, page: PageOfLink, token: string): Promise<boolean> {
  const found = await findUnsubscription(db, page, token);
  if (!found) return false;
  await removeSubscriberRow(db, found.uid);
  return true;
}

/** Deletes a subscriber; its tokens and queued mail go with it (foreign keys cascade). */
async function removeSubscriberRow(db: Executor, uid: string): Promise<void> {
  await db.deleteFrom('status_page_subscribers').where('uid', '=', uid).execute();
}

/** How many subscribers the page has, confirmed and not. */
export async function countSubscribers(db: Executor, pageUid: string): Promise<SubscriberCounts> {
  const rows = await db
    .selectFrom('status_page_subscribers')
    .select((eb) => [eb.fn.countAll<number | string>().as('count'), eb('confirmed_at', 'is not', null).as('confirmed')])
    .where('status_page_uid', '=', pageUid)
    .groupBy('confirmed')
    .execute();
  const counts: SubscriberCounts = { confirmed: 0, unconfirmed: 0 };
  for (const row of rows) counts[Number(row.confirmed) ? 'confirmed' : 'unconfirmed'] = Number(row.count);
  return counts;
}

/** Every subscriber of the page, oldest first: the export. `confirmedOnly` leaves out those who never confirmed. */
export async function listSubscribers(db: Executor, pageUid: string, confirmedOnly: boolean): Promise<Subscriber[]> {
  const rows = await db
    .selectFrom('status_page_subscribers')
    .select(['uid', 'email', 'confirmed_at', 'created_at'])
    .where('status_page_uid', '=', pageUid)
    .$if(confirmedOnly, (q) => q.where('confirmed_at', 'is not', null))
    .orderBy('uid')
    .execute();
  return rows.map((row) => ({ uid: row.uid, email: row.email, confirmedAt: row.confirmed_at, createdAt: row.created_at }));
}

/** Removes a subscriber of the page (by its uid, or by its address); false when there is none. */
export async function removeSubscriber(db: Executor, pageUid: string, uidOrEmail: string): Promise<boolean> {
  const row = await db
    .selectFrom('status_page_subscribers')
    .select('uid')
    .where('status_page_uid', '=', pageUid)
    .where((eb) => eb.or([eb('uid', '=', uidOrEmail), eb('email_key', '=', uidOrEmail.toLowerCase())]))
    .executeTakeFirst();
  if (!row) return false;
  await removeSubscriberRow(db, row.uid);
  return true;
}
