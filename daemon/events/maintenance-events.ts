import type { Executor } from '../checks/check-store.js';
import { scheduleOf } from '../maintenance/coverage.js';
import { occurrencesBetween } from '../maintenance/recurrence.js';
import type { OrgEvent } from './org-events.js';

// Maintenance windows store their schedule, not their occurrences: the events of a window
// starting and ending are computed from its row, the same on every replica, so they need no
// table and replay like the others.

const ID = /^maintenance:([0-9a-z]{26}):(\d{1,15}):(started|ended)$/;

/** `maintenance.started` and `maintenance.ended` of the windows whose occurrences start or end in [from, to]. */
export async function maintenanceEvents(db: Executor, from: number, to: number, organizationUid?: string): Promise<OrgEvent[]> {
  if (to < from) return [];
  let query = db.selectFrom('maintenance_windows').select(['uid', 'organization_uid', 'title', 'starts_at', 'ends_at', 'recurrence', 'timezone']);
  if (organizationUid) query = query.where('organization_uid', '=', organizationUid);
  const events: OrgEvent[] = [];
  for (const row of await query.execute()) {
    for (const occurrence of occurrencesBetween(scheduleOf(row), from, to + 1)) {
      const data = { uid: row.uid, title: row.title, startsAt: new Date(occurrence.start).toISOString(), endsAt: new Date(occurrence.end).toISOString() };
      for (const [step, at] of [
        ['started', occurrence.start],
        ['ended', occurrence.end],
      ] as const) {
        if (at < from || at > to) continue;
        events.push({
          id: `maintenance:${row.uid}:${at}:${step}`,
          type: `maintenance.${step}`,
          organizationUid: row.organization_uid,
          checkSlug: null,
          at: new Date(at).toISOString(),
          data,
        });
      }
    }
  }
  return events;
}

/** When the maintenance event of this id happened, if it names a window of the organization. */
export async function maintenanceEventTime(db: Executor, organizationUid: string, id: string): Promise<string | undefined> {
  const match = ID.exec(id);
  if (!match) return undefined;
  const window = await db
    .selectFrom('maintenance_windows')
    .select('uid')
    .where('uid', '=', match[1])
    .where('organization_uid', '=', organizationUid)
    .executeTakeFirst();
  return window ? new Date(Number(match[2])).toISOString() : undefined;
}
