import type { Db } from '../../db/connect.js';
import type { Executor } from '../../db/executor.js';
import { scheduleOf } from '../../maintenance/coverage.js';
import { type Occurrence, occurrencesBetween } from '../../maintenance/recurrence.js';
import { publicPageLinks } from '../public/public-links.js';
import { type CoveringWindow, windowsCovering } from '../public/public-maintenance.js';
import { type SubscriberMessage, mailSubscribers } from './subscriber-outbox.js';
import { inTransaction } from '../../db/in-transaction.js';

// The mail a public page's subscribers get about the maintenance of its checks: a day before an
// occurrence ('scheduled') and when it begins ('started'), each once per page, window and
// occurrence. What went out is recorded under a unique key in the transaction that queues the
// mail, so two daemons running this at once queue it once.
//
// - 'scheduled' goes out once an occurrence is less than a day ahead, but only for an occurrence
//   that begins more than an hour after its window was created: a window made for the next few
//   minutes gets the 'started' mail alone, not both at once.
// - 'started' goes out while the occurrence is under way and began less than an hour ago; after
//   a downtime the mail of an occurrence that has ended (or began long ago) is not sent.
// - An occurrence is known by its start: a window moved to another time is mailed again for its new
//   time; one only renamed is not.

export type MaintenanceMailKind = 'scheduled' | 'started';

const HOUR_MS = 3600_000;
/** How far ahead the day-before mail looks. */
export const SCHEDULED_AHEAD_MS = 24 * HOUR_MS;
/** An occurrence this close to its window's creation gets no day-before mail. */
export const SCHEDULED_MIN_NOTICE_MS = HOUR_MS;
/** A 'started' mail is still sent this long after the occurrence began (catching up after a downtime). */
export const STARTED_LATE_MS = HOUR_MS;
/** Records are kept this long after their occurrence began. */
const KEEP_MS = 30 * 24 * HOUR_MS;

/** A public page as the mail needs it. */
interface MailedPage {
  uid: string;
  title: string;
  organization_uid: string;
  org_slug: string;
  slug: string;
}

/** Which mail an occurrence is due at `now`, if any. */
export function dueKind(occurrence: Occurrence, windowCreatedAt: number, now: number): MaintenanceMailKind | null {
  if (occurrence.start <= now) return occurrence.end > now && now - occurrence.start < STARTED_LATE_MS ? 'started' : null;
  if (occurrence.start - now > SCHEDULED_AHEAD_MS) return null;
  return occurrence.start - windowCreatedAt > SCHEDULED_MIN_NOTICE_MS ? 'scheduled' : null;
}

/** One line of text: a title can hold no line break into a subject or the mail's layout. */
const oneLine = (text: string) => text.replace(/[\r\n\t\u0000-\u001f\u007f]+/g, ' ').trim();

/** An instant in UTC and in a time zone: `2026-03-02 02:00 UTC (03:00 Europe/Berlin)`. */
function when(ms: number, timezone: string): string {
  const utc = new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
  if (timezone === 'UTC') return `${utc} UTC`;
  const local = new Intl.DateTimeFormat('en-CA', {
    timeZone: timezone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  })
    .format(new Date(ms))
    .replace(',', '');
  return `${utc} UTC (${local} ${timezone})`;
}

/** The mail about one occurrence of a window on one page. */
export function maintenanceMessage(
  page: { title: string },
  link: string,
  entry: CoveringWindow,
  occurrence: Occurrence,
  kind: MaintenanceMailKind,
): SubscriberMessage {
  const { window, covered } = entry;
  const title = oneLine(window.title);
  const headline = kind === 'started' ? 'Maintenance started' : 'Maintenance scheduled';
  const description = window.description ? `\n\n${window.description}` : '';
  return {
    subject: `[${oneLine(page.title)}] ${headline}: ${title}`,
    text:
      `${headline}: ${title}\n\n` +
      `From:  ${when(occurrence.start, window.timezone)}\n` +
      `Until: ${when(occurrence.end, window.timezone)}\n\n` +
      `Affects: ${covered.map((check) => oneLine(check.name)).join(', ')}${description}\n\n` +
      `The status page: ${link}`,
  };
}

/** Records the mail and queues it, in one transaction; false when it was recorded already. */
async function queueOnce(
  db: Db,
  page: MailedPage,
  windowUid: string,
  occurrence: Occurrence,
  kind: MaintenanceMailKind,
  message: SubscriberMessage,
  now: Date,
) {
  return inTransaction(db.kysely, async (trx) => {
    const recorded = await trx
      .insertInto('status_page_maintenance_mail')
      .values({
        status_page_uid: page.uid,
        window_uid: windowUid,
        occurrence_start: new Date(occurrence.start).toISOString(),
        kind,
        created_at: now.toISOString(),
      })
      .onConflict((oc) => oc.doNothing())
      .returning('kind')
      .executeTakeFirst();
    if (!recorded) return false;
    await mailSubscribers(trx, page.uid, message, now);
    return true;
  });
}

/** The checks listed on a page, as the coverage needs them. */
function listedChecks(db: Executor, pageUid: string) {
  return db
    .selectFrom('status_page_checks as l')
    .innerJoin('checks as c', 'c.uid', 'l.check_uid')
    .select(['c.uid', 'c.name', 'c.labels'])
    .where('l.status_page_uid', '=', pageUid)
    .orderBy('l.position')
    .execute();
}

/**
 * Queues the maintenance mail due at `now` to the subscribers of every public page: one pass of
 * the periodic job. Answers how many (page, occurrence, kind) mails it queued.
 */
export async function queueMaintenanceMail(db: Db, baseUrl: string, now: Date): Promise<number> {
  const at = now.getTime();
  const pages = await db.kysely
    .selectFrom('status_pages as p')
    .innerJoin('organizations as o', 'o.uid', 'p.organization_uid')
    .select(['p.uid', 'p.title', 'p.organization_uid', 'p.slug', 'o.slug as org_slug'])
    .where('p.public', '=', 1)
    .where((eb) => eb.exists(eb.selectFrom('maintenance_windows as w').select('w.uid').whereRef('w.organization_uid', '=', 'p.organization_uid')))
    .execute();
  let queued = 0;
  for (const page of pages) {
    const link = publicPageLinks(baseUrl, page.org_slug, page.slug).page;
    for (const entry of await windowsCovering(db.kysely, page.organization_uid, await listedChecks(db.kysely, page.uid))) {
      const createdAt = Date.parse(entry.window.created_at);
      for (const occurrence of occurrencesBetween(scheduleOf(entry.window), at - STARTED_LATE_MS, at + SCHEDULED_AHEAD_MS + 1)) {
        const kind = dueKind(occurrence, createdAt, at);
        if (!kind) continue;
        if (await queueOnce(db, page, entry.window.uid, occurrence, kind, maintenanceMessage(page, link, entry, occurrence, kind), now)) queued++;
      }
    }
  }
  return queued;
}

/** Deletes the records of occurrences that began more than 30 days ago. */
export async function pruneMaintenanceMail(db: Db, now: Date): Promise<void> {
  await db.kysely
    .deleteFrom('status_page_maintenance_mail')
    .where('occurrence_start', '<', new Date(now.getTime() - KEEP_MS).toISOString())
    .execute();
}
