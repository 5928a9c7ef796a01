import type { Executor } from '../checks/check-store.js';
import type { Selectable } from 'kysely';
import type { CheckStateEvent, IncidentEvent, MaintenanceEvent } from '../../contract/events.js';
import type { CheckStateChangesTable, IncidentsTable } from '../db/schema.js';
import { maintenanceEvents, maintenanceEventTime } from './maintenance-events.js';

/** What the events stream says: a check changed state, an incident moved on, a maintenance window began or ended. */
export type OrgEventType = 'check.state' | 'incident.opened' | 'incident.acknowledged' | 'incident.resolved' | 'maintenance.started' | 'maintenance.ended';

/** One event of an organization, read from the stored rows (never from memory, so every replica sees it). */
export interface OrgEvent {
  /** The `id:` of the event, what a client sends back as `Last-Event-ID`. */
  id: string;
  type: OrgEventType;
  organizationUid: string;
  /** The check it is about (null for an incident opened by hand about no check, and for maintenance). */
  checkSlug: string | null;
  /** When it happened (ISO-8601). */
  at: string;
  data: CheckStateEvent | IncidentEvent | MaintenanceEvent;
}

const INCIDENT_STEPS = [
  ['opened', 'created_at'],
  ['acknowledged', 'acknowledged_at'],
  ['resolved', 'resolved_at'],
] as const;

/** The event of a stored state change; its id is the row's uid. */
export function stateChangeEvent(row: Selectable<CheckStateChangesTable>): OrgEvent {
  return {
    id: row.uid,
    type: 'check.state',
    organizationUid: row.organization_uid,
    checkSlug: row.check_slug,
    at: row.at,
    data: {
      slug: row.check_slug,
      state: row.to_state as CheckStateEvent['state'],
      from: row.from_state as CheckStateEvent['from'],
      since: row.at,
      message: row.message,
      incidentUid: row.incident_uid,
    },
  };
}

/** The events an incident row has had so far (opened, then acknowledged and resolved when they happened). */
export function incidentEvents(row: Selectable<IncidentsTable>): OrgEvent[] {
  const events: OrgEvent[] = [];
  for (const [step, column] of INCIDENT_STEPS) {
    const at = row[column];
    if (!at) continue;
    events.push({
      id: `incident:${row.uid}:${step}`,
      type: `incident.${step}`,
      organizationUid: row.organization_uid,
      checkSlug: row.check_slug,
      at,
      data: {
        uid: row.uid,
        title: row.title,
        checkSlug: row.check_slug,
        status: row.status,
        at,
        ...(step === 'resolved' ? { resolution: row.resolution } : {}),
      },
    });
  }
  return events;
}

/** Events in the order they are sent: by time, then by id. */
export const byTimeThenId = (a: OrgEvent, b: OrgEvent): number => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** The first ten characters of the uid made at `ms` (uids sort by time: daemon/db/ids.ts). */
export function uidPrefixAt(ms: number): string {
  const alphabet = '0123456789abcdefghjkmnpqrstvwxyz';
  let time = '';
  for (let t = Math.max(0, ms), i = 0; i < 10; i++, t = Math.floor(t / 32)) time = alphabet[t % 32] + time;
  return time;
}

/**
 * Events of every organization at or after `since` (ISO) and up to `now`, oldest first, at most
 * `limit` of each table (maintenance events are computed from the windows' schedules).
 */
export async function eventsSince(
  db: Executor,
  since: string,
  options: { organizationUid?: string; limit: number; now: number },
): Promise<{ events: OrgEvent[]; full: boolean }> {
  let changes = db
    .selectFrom('check_state_changes')
    .selectAll()
    .where('uid', '>=', since ? uidPrefixAt(Date.parse(since)) : '');
  if (options.organizationUid) changes = changes.where('organization_uid', '=', options.organizationUid);
  const changeRows = await changes.orderBy('uid', 'asc').limit(options.limit).execute();
  let incidents = db.selectFrom('incidents').selectAll().where('updated_at', '>=', since);
  if (options.organizationUid) incidents = incidents.where('organization_uid', '=', options.organizationUid);
  const incidentRows = await incidents.orderBy('updated_at', 'asc').limit(options.limit).execute();
  const maintenance = since ? await maintenanceEvents(db, Date.parse(since), options.now, options.organizationUid) : [];
  const events = [...changeRows.map(stateChangeEvent), ...incidentRows.flatMap(incidentEvents), ...maintenance]
    .filter((event) => event.at >= since)
    .sort(byTimeThenId);
  return { events, full: changeRows.length === options.limit || incidentRows.length === options.limit };
}

/** When the event of this id happened, read from its row; undefined when it names nothing of the organization. */
export async function eventTime(db: Executor, organizationUid: string, id: string): Promise<string | undefined> {
  if (id.startsWith('maintenance:')) return maintenanceEventTime(db, organizationUid, id);
  const incident = /^incident:([0-9a-z]{26}):(opened|acknowledged|resolved)$/.exec(id);
  if (incident) {
    const row = await db.selectFrom('incidents').selectAll().where('uid', '=', incident[1]).where('organization_uid', '=', organizationUid).executeTakeFirst();
    return row ? (incidentEvents(row).find((event) => event.id === id)?.at ?? undefined) : undefined;
  }
  if (!/^[0-9a-z]{26}$/.test(id)) return undefined;
  const row = await db.selectFrom('check_state_changes').select('at').where('uid', '=', id).where('organization_uid', '=', organizationUid).executeTakeFirst();
  return row?.at;
}
