import type { Insertable } from 'kysely';
import { newId } from '../db/ids.js';
import type { NotificationOutboxTable } from '../db/schema.js';
import { alreadySummarised, FLAP_WINDOW_MINUTES, flappingCount, targetKey } from './flapping.js';
import type { NotificationEvent, NotificationFacts } from './message.js';
import { quietHoursEnd } from './quiet-hours.js';
import { channelsFor, mailRecipients } from './recipients.js';
import type { Executor } from '../db/executor.js';
import { readOncePerTransaction } from '../db/transaction-reads.js';
import { afterCommit } from '../db/in-transaction.js';
import type { DeferredInserts } from '../db/deferred-inserts.js';
import { CHECK_COLUMNS, checkColumns, type CheckColumns, type KnownOpening } from './opening-reads.js';
import { messagesQueued } from './outbox-bell.js';

/** The incident events that notify. */
export type IncidentEvent = Extract<NotificationEvent, `incident.${string}`>;

/**
 * The check's part of a message: the check, and the result that changed its state when the
 * engine gives it (`lastResultMessage`), else the check's last recorded one.
 */
function checkFacts(row: CheckColumns | undefined, lastResultMessage: string | null | undefined): Pick<NotificationFacts, 'check' | 'lastResultMessage'> {
  const check = row?.c_uid != null ? { uid: row.c_uid, slug: row.c_slug!, name: row.c_name!, type: row.c_type!, target: row.c_target! } : null;
  return { check, lastResultMessage: lastResultMessage ?? row?.last_message ?? null };
}

/** Reads what a message about the incident says; undefined when the incident does not exist. */
async function incidentFacts(
  db: Executor,
  orgUid: string,
  incidentUid: string,
  event: NotificationEvent,
  now: Date,
  lastResultMessage: string | null | undefined,
): Promise<NotificationFacts | undefined> {
  const row = await db
    .selectFrom('incidents as i')
    .innerJoin('organizations as o', 'o.uid', 'i.organization_uid')
    .leftJoin('checks as c', 'c.uid', 'i.check_uid')
    .leftJoin('check_states as cs', 'cs.check_uid', 'i.check_uid')
    .select(['i.uid', 'i.title', 'i.status', 'i.created_at', 'i.acknowledged_at', 'i.resolved_at'])
    .select(['o.uid as org_uid', 'o.slug as org_slug', 'o.name as org_name'])
    .select(CHECK_COLUMNS)
    .where('i.organization_uid', '=', orgUid)
    .where('i.uid', '=', incidentUid)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    event,
    organization: { uid: row.org_uid, slug: row.org_slug, name: row.org_name },
    incident: {
      uid: row.uid,
      title: row.title,
      status: row.status,
      createdAt: row.created_at,
      acknowledgedAt: row.acknowledged_at,
      resolvedAt: row.resolved_at,
    },
    ...checkFacts(row, lastResultMessage),
    occurredAt: now.toISOString(),
  };
}

/** An incident opened in this transaction, as its opener wrote it. */
export interface OpenedIncident {
  organizationUid: string;
  uid: string;
  title: string;
  checkUid: string | null;
  createdAt: string;
}

/**
 * What a message about an incident just opened says: the incident is as its opener wrote it, so
 * only its organization (once per transaction) and its check are read, the check not even that
 * when it is `known` (opening-reads.ts).
 */
async function openedIncidentFacts(
  db: Executor,
  opened: OpenedIncident,
  now: Date,
  lastResultMessage: string | null | undefined,
  known: KnownOpening | undefined,
): Promise<NotificationFacts | undefined> {
  const organization = await readOncePerTransaction(db, `organization ${opened.organizationUid}`, () =>
    db.selectFrom('organizations').select(['uid', 'slug', 'name']).where('uid', '=', opened.organizationUid).executeTakeFirst(),
  );
  if (!organization) return undefined;
  const check = !opened.checkUid ? undefined : known ? known.check : await checkColumns(db).where('c.uid', '=', opened.checkUid).executeTakeFirst();
  return {
    event: 'incident.opened',
    organization,
    incident: { uid: opened.uid, title: opened.title, status: 'open', createdAt: opened.createdAt, acknowledgedAt: null, resolvedAt: null },
    ...checkFacts(check, lastResultMessage),
    occurredAt: now.toISOString(),
  };
}

/**
 * Writes the messages about an incident's change to the outbox: one per channel that applies
 * (the check's chosen channels, else the organization's defaults) and one per member whose own
 * settings ask for e-mail about the event (held until their quiet hours end). Call it with the
 * transaction that changed the incident, so the change and its messages commit together.
 * A flapping check gets one summary per destination and window instead (see flapping.ts).
 * `lastResultMessage` is the result that changed the check's state, when the engine knows it;
 * otherwise the message of the check's last recorded result is used.
 * Returns how many messages were queued.
 */
export async function enqueueIncidentNotifications(
  trx: Executor,
  incident: { organizationUid: string; uid: string },
  event: IncidentEvent,
  now: Date,
  lastResultMessage?: string | null,
): Promise<number> {
  const facts = await incidentFacts(trx, incident.organizationUid, incident.uid, event, now, lastResultMessage);
  return facts ? queueMessages(trx, incident, facts, now) : 0;
}

/**
 * `enqueueIncidentNotifications` for an incident opened in this transaction, with what its opener
 * wrote; `known`: what its check's messages read, read ahead (opening-reads.ts), the incident's
 * own opening time among the check's incident times; `inserts`: where the messages wait to be
 * inserted with others (deferred-inserts.ts).
 */
export async function enqueueOpenedIncidentNotifications(
  trx: Executor,
  opened: OpenedIncident,
  now: Date,
  lastResultMessage?: string | null,
  known?: KnownOpening,
  inserts?: DeferredInserts,
): Promise<number> {
  const facts = await openedIncidentFacts(trx, opened, now, lastResultMessage, known);
  return facts ? queueMessages(trx, opened, facts, now, known, inserts) : 0;
}

/** Writes the messages that tell `facts` to the outbox (see enqueueIncidentNotifications). */
async function queueMessages(
  trx: Executor,
  incident: { organizationUid: string; uid: string },
  facts: NotificationFacts,
  now: Date,
  known?: KnownOpening,
  inserts?: DeferredInserts,
): Promise<number> {
  const event = facts.event;
  const checkUid = facts.check?.uid ?? null;
  const flapping = checkUid ? await flappingCount(trx, checkUid, now, known?.incidentTimes) : undefined;
  const summarised = flapping !== undefined ? await alreadySummarised(trx, checkUid!, now) : new Set<string>();
  const stored: NotificationFacts =
    flapping !== undefined ? { ...facts, event: 'check.flapping', flapping: { incidents: flapping, windowMinutes: FLAP_WINDOW_MINUTES } } : facts;
  const payload = JSON.stringify(stored);
  const at = now.toISOString();
  const row = (channelUid: string | null, channelType: string, recipient: string | null, dueAt: string): Insertable<NotificationOutboxTable> => ({
    uid: newId(now.getTime()),
    organization_uid: incident.organizationUid,
    channel_uid: channelUid,
    channel_type: channelType,
    recipient,
    incident_uid: incident.uid,
    check_uid: checkUid,
    event: stored.event,
    payload,
    status: 'pending',
    attempts: 0,
    next_attempt_at: dueAt,
    lease_owner: null,
    lease_until: null,
    last_attempt_at: null,
    last_response_code: null,
    last_error: null,
    delivered_at: null,
    created_at: at,
  });
  const rows: Insertable<NotificationOutboxTable>[] = [];
  for (const channel of await channelsFor(trx, incident.organizationUid, checkUid, known?.chosenChannels)) rows.push(row(channel.uid, channel.type, null, at));
  for (const member of await mailRecipients(trx, incident.organizationUid, event)) {
    rows.push(row(null, 'email', member.email, (quietHoursEnd(member.settings, now) ?? now).toISOString()));
  }
  const due = rows.filter((r) => !summarised.has(targetKey(r.channel_uid ?? null, r.recipient ?? null)));
  if (inserts) inserts.add('notification_outbox', due);
  else {
    // 18 parameters a row: 500 rows stay under both engines' limits.
    for (let i = 0; i < due.length; i += 500)
      await trx
        .insertInto('notification_outbox')
        .values(due.slice(i, i + 500))
        .execute();
  }
  // This daemon's dispatcher delivers them as soon as they commit, not at its next poll.
  if (due.length > 0) afterCommit(trx, messagesQueued.notification_outbox);
  return due.length;
}
