import type { IncidentResolution } from '../../contract/responses.js';
import { newId } from '../db/ids.js';
import type { Insertable } from 'kysely';
import type { IncidentsTable } from '../db/schema.js';
import { AppError } from '../errors.js';
import { enqueueIncidentNotifications, enqueueOpenedIncidentNotifications } from '../notify/enqueue.js';
import type { Executor } from '../db/executor.js';
import type { KnownOpening } from '../notify/opening-reads.js';
import type { DeferredInserts } from '../db/deferred-inserts.js';

// The one lifecycle of an incident, for people (the API) and the system (the engine):
// open -> acknowledged -> resolved, or open -> resolved. Every step that changes an incident
// queues its notifications in the same transaction as the change.

export type IncidentStatus = IncidentsTable['status'];

/** Who opens an incident: a member, or the engine about a check that went down. */
export interface IncidentOpening {
  organizationUid: string;
  title: string;
  check: { uid: string; slug: string } | null;
  /** The member who opened it; null when the system did. */
  openedBy: string | null;
  /** The result that opened it, when the engine did. */
  message?: string | null;
}

/**
 * Opens an incident and queues its notifications; answers its uid. Call inside a transaction.
 * `known`: what the messages read about its check, read ahead (opening-reads.ts); `inserts`:
 * where its rows wait to be inserted with others, instead of now (deferred-inserts.ts).
 */
export async function openIncident(trx: Executor, opening: IncidentOpening, now: Date, known?: KnownOpening, inserts?: DeferredInserts): Promise<string> {
  const at = now.toISOString();
  const uid = newId(now.getTime());
  const row: Insertable<IncidentsTable> = {
    uid,
    organization_uid: opening.organizationUid,
    title: opening.title,
    status: 'open',
    check_uid: opening.check?.uid ?? null,
    check_slug: opening.check?.slug ?? null,
    opened_by: opening.openedBy,
    acknowledged_at: null,
    acknowledged_by: null,
    resolved_at: null,
    resolved_by: null,
    created_at: at,
    updated_at: at,
  };
  if (inserts) inserts.add('incidents', [row]);
  else await trx.insertInto('incidents').values(row).execute();
  await enqueueOpenedIncidentNotifications(
    trx,
    { organizationUid: opening.organizationUid, uid, title: opening.title, checkUid: opening.check?.uid ?? null, createdAt: at },
    now,
    opening.message,
    // The check's incidents now include this one, as a read after the insert would find.
    known && { ...known, incidentTimes: [...known.incidentTimes, at] },
    inserts,
  );
  return uid;
}

/**
 * A member moves an incident on: `acknowledge` from open, `resolve` from open or acknowledged.
 * The update is conditional on the current status, so two people acting at once cannot both
 * win; answers whether this call changed it.
 */
export async function advanceIncident(
  trx: Executor,
  incident: { organizationUid: string; uid: string },
  step: 'acknowledge' | 'resolve',
  userUid: string,
  now: Date,
): Promise<boolean> {
  const at = now.toISOString();
  const from: IncidentStatus[] = step === 'acknowledge' ? ['open'] : ['open', 'acknowledged'];
  const changes =
    step === 'acknowledge'
      ? { status: 'acknowledged' as const, acknowledged_at: at, acknowledged_by: userUid, updated_at: at }
      : { status: 'resolved' as const, resolved_at: at, resolved_by: userUid, updated_at: at };
  const result = await trx
    .updateTable('incidents')
    .set(changes)
    .where('organization_uid', '=', incident.organizationUid)
    .where('uid', '=', incident.uid)
    .where('status', 'in', from)
    .executeTakeFirst();
  const changed = Number(result.numUpdatedRows) > 0;
  if (changed) await enqueueIncidentNotifications(trx, incident, step === 'acknowledge' ? 'incident.acknowledged' : 'incident.resolved', now);
  return changed;
}

/** 409 for acknowledging an incident that is already resolved. */
export const alreadyResolved = (): AppError =>
  new AppError('CONFLICT', 'The incident is already resolved; there is nothing left to acknowledge.', { reason: 'INCIDENT_RESOLVED' });

/** The words a resolution notification carries when no result resolved it. */
const RESOLUTION_MESSAGES: Partial<Record<IncidentResolution, string>> = {
  'check-paused': 'the check was paused, so the incident was resolved',
  'check-deleted': 'the check was deleted, so the incident was resolved',
};

/**
 * The system resolves an incident, saying why, and queues its notifications (the message is
 * the result that resolved it, or for a paused or deleted check the reason in words). Answers whether this call changed it.
 */
export async function resolveBySystem(
  trx: Executor,
  incident: { organizationUid: string; uid: string },
  resolution: IncidentResolution,
  now: Date,
  message?: string | null,
): Promise<boolean> {
  const at = now.toISOString();
  const result = await trx
    .updateTable('incidents')
    .set({ status: 'resolved', resolved_at: at, resolved_by: null, resolved_by_system: 1, resolution, updated_at: at })
    .where('organization_uid', '=', incident.organizationUid)
    .where('uid', '=', incident.uid)
    .where('status', '!=', 'resolved')
    .executeTakeFirst();
  const changed = Number(result.numUpdatedRows) > 0;
  if (changed) await enqueueIncidentNotifications(trx, incident, 'incident.resolved', now, message ?? RESOLUTION_MESSAGES[resolution]);
  return changed;
}

/** The unresolved incidents about a check, newest first. */
export async function unresolvedIncidentsOf(trx: Executor, checkUid: string): Promise<string[]> {
  const rows = await trx
    .selectFrom('incidents')
    .select('uid')
    .where('check_uid', '=', checkUid)
    .where('status', '!=', 'resolved')
    .orderBy('uid', 'desc')
    .execute();
  return rows.map((row) => row.uid);
}
