import type { Executor } from '../db/executor.js';
import { FLAP_WINDOW_MINUTES } from './flapping.js';
import type { ChannelTarget } from './recipients.js';

// What the messages of an incident just opened about a check read (the check with its state, its
// incidents of the flapping window, the channels it chose), read ahead for many checks in a few
// statements. The engine opens the incidents of one batch of results in one transaction; with
// many checks down at once, one statement per check and read was most of that transaction's
// time on PostgreSQL (docs/notifications.md, "Incidents about checks, as the engine opens them").

/** A check as a message's query selects it (the left join of its state; all null when the check is gone). */
export interface CheckColumns {
  c_uid: string | null;
  c_slug: string | null;
  c_name: string | null;
  c_type: string | null;
  c_target: string | null;
  last_message: string | null;
}

export const CHECK_COLUMNS = ['c.uid as c_uid', 'c.slug as c_slug', 'c.name as c_name', 'c.type as c_type', 'c.target as c_target', 'cs.last_message'] as const;

/** Checks and their states as a message's facts read them; narrow it with `where` on `c.uid`. */
export const checkColumns = (db: Executor) => db.selectFrom('checks as c').leftJoin('check_states as cs', 'cs.check_uid', 'c.uid').select(CHECK_COLUMNS);

/**
 * What opening an incident about one check reads, known before: good for the first incident
 * opened about the check after the reads, and only while nothing else changed its rows.
 */
export interface KnownOpening {
  /** The check and its state; undefined when the check is gone. */
  check: CheckColumns | undefined;
  /** When each of the check's incidents was opened (ISO times), from the start of the flapping window of the earliest opening asked about. */
  incidentTimes: readonly string[];
  /** The channels the check chose in its organization, by uid. */
  chosenChannels: readonly ChannelTarget[];
}

/** Checks per statement of a read ahead: one parameter each, well under both engines' limits. */
export const CHECKS_PER_READ = 500;

/**
 * Reads what opening an incident about each of `checks` would read, in three statements per
 * CHECKS_PER_READ checks; `earliest` is the time of the earliest opening (the flapping window
 * is counted back from each opening's own time, never earlier than from this one).
 */
export async function readOpenings(
  db: Executor,
  checks: readonly { uid: string; organizationUid: string }[],
  earliest: Date,
): Promise<Map<string, KnownOpening>> {
  const known = new Map<string, KnownOpening & { incidentTimes: string[]; chosenChannels: ChannelTarget[] }>();
  const organizationOf = new Map(checks.map((check) => [check.uid, check.organizationUid]));
  const since = new Date(earliest.getTime() - FLAP_WINDOW_MINUTES * 60_000).toISOString();
  const uids = [...organizationOf.keys()];
  for (let i = 0; i < uids.length; i += CHECKS_PER_READ) {
    const batch = uids.slice(i, i + CHECKS_PER_READ);
    for (const uid of batch) known.set(uid, { check: undefined, incidentTimes: [], chosenChannels: [] });
    const rows = await db
      .selectFrom('checks as c')
      .leftJoin('check_states as cs', 'cs.check_uid', 'c.uid')
      .select(CHECK_COLUMNS)
      .where('c.uid', 'in', batch)
      .execute();
    for (const row of rows) known.get(row.c_uid!)!.check = row;
    const incidents = await db
      .selectFrom('incidents')
      .select(['check_uid', 'created_at'])
      .where('check_uid', 'in', batch)
      .where('created_at', '>=', since)
      .execute();
    for (const incident of incidents) known.get(incident.check_uid!)!.incidentTimes.push(incident.created_at);
    const chosen = await db
      .selectFrom('check_channels as cc')
      .innerJoin('notification_channels as ch', 'ch.uid', 'cc.channel_uid')
      .select(['cc.check_uid', 'ch.organization_uid', 'ch.uid', 'ch.type'])
      .where('cc.check_uid', 'in', batch)
      .orderBy('ch.uid')
      .execute();
    for (const channel of chosen) {
      if (channel.organization_uid === organizationOf.get(channel.check_uid))
        known.get(channel.check_uid)!.chosenChannels.push({ uid: channel.uid, type: channel.type });
    }
  }
  return known;
}
