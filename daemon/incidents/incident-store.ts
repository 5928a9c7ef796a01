import type { Kysely } from 'kysely';
import { newId } from '../db/ids.js';
import { inTransaction } from '../db/in-transaction.js';
import type { Database, IncidentsTable } from '../db/schema.js';
import { AppError, notFound } from '../errors.js';
import { toPage, type Page, type PageRequest } from '../http/pagination.js';
import type { Incident as ContractIncident } from '../../contract/responses.js';
import type { IncidentActor as ContractIncidentActor } from '../../contract/responses.js';
import { enqueueIncidentNotifications } from '../notify/enqueue.js';

// Incidents: opened by hand (or by a check), then acknowledged and resolved, recording who did
// each and when. open -> acknowledged -> resolved; open -> resolved directly is allowed too.

export type IncidentStatus = IncidentsTable['status'];
export { INCIDENT_STATUSES } from '../../contract/states.js';

/** Who did something, as an incident shows it. */
export type Actor = ContractIncidentActor;

/** An incident as the API answers it. */
export type IncidentView = ContractIncident;

type Db = Kysely<Database>;

function selectIncidents(db: Db, orgUid: string) {
  return db
    .selectFrom('incidents as i')
    .leftJoin('checks as c', 'c.uid', 'i.check_uid')
    .leftJoin('users as o', 'o.uid', 'i.opened_by')
    .leftJoin('users as a', 'a.uid', 'i.acknowledged_by')
    .leftJoin('users as r', 'r.uid', 'i.resolved_by')
    .selectAll('i')
    .select([
      'c.slug as current_slug',
      'o.email as o_email',
      'o.name as o_name',
      'a.email as a_email',
      'a.name as a_name',
      'r.email as r_email',
      'r.name as r_name',
    ])
    .where('i.organization_uid', '=', orgUid);
}

type Row = Awaited<ReturnType<ReturnType<typeof selectIncidents>['executeTakeFirstOrThrow']>>;

const actor = (uid: string | null, email: string | null, name: string | null): Actor | null =>
  uid && email !== null ? { uid, email, name: name ?? '' } : null;

function toView(row: Row): IncidentView {
  return {
    uid: row.uid,
    title: row.title,
    status: row.status,
    checkSlug: row.current_slug ?? row.check_slug,
    openedBy: actor(row.opened_by, row.o_email, row.o_name),
    createdAt: row.created_at,
    acknowledgedAt: row.acknowledged_at,
    acknowledgedBy: actor(row.acknowledged_by, row.a_email, row.a_name),
    resolvedAt: row.resolved_at,
    resolvedBy: actor(row.resolved_by, row.r_email, row.r_name),
    resolvedBySystem: Boolean(row.resolved_by_system),
    updatedAt: row.updated_at,
  };
}

/** One incident, or undefined. */
export async function getIncident(db: Db, orgUid: string, uid: string): Promise<IncidentView | undefined> {
  const row = await selectIncidents(db, orgUid).where('i.uid', '=', uid).executeTakeFirst();
  return row && toView(row);
}

/** A page of incidents, newest first, optionally of one status. */
export async function listIncidents(
  db: Db,
  orgUid: string,
  query: PageRequest & { status?: IncidentStatus },
): Promise<Page<IncidentView>> {
  let builder = selectIncidents(db, orgUid);
  if (query.status) builder = builder.where('i.status', '=', query.status);
  if (query.cursor) builder = builder.where('i.uid', '<', query.cursor);
  const rows = await builder.orderBy('i.uid', 'desc').limit(query.limit + 1).execute();
  return toPage(rows, query.limit, toView);
}

/** Opens an incident by hand, optionally about a check; its notifications are queued in the same transaction. */
export async function openIncident(
  db: Db,
  orgUid: string,
  input: { title: string; check?: { uid: string; slug: string }; openedBy: string },
  now: Date,
): Promise<IncidentView> {
  const at = now.toISOString();
  const uid = newId(now.getTime());
  await inTransaction(db, async (trx) => {
    await trx
      .insertInto('incidents')
      .values({
        uid,
        organization_uid: orgUid,
        title: input.title,
        status: 'open',
        check_uid: input.check?.uid ?? null,
        check_slug: input.check?.slug ?? null,
        opened_by: input.openedBy,
        acknowledged_at: null,
        acknowledged_by: null,
        resolved_at: null,
        resolved_by: null,
        created_at: at,
        updated_at: at,
      })
      .execute();
    await enqueueIncidentNotifications(trx, { organizationUid: orgUid, uid }, 'incident.opened', now);
  });
  return (await getIncident(db, orgUid, uid))!;
}

/**
 * Moves an incident on: `acknowledge` from open, `resolve` from open or acknowledged. The
 * update is conditional on the current status, so two people acting at once cannot both win.
 * Repeating a step that is already done answers the incident unchanged; acknowledging a
 * resolved incident is 409 CONFLICT `INCIDENT_RESOLVED`. A step that changes the incident
 * queues its notifications in the same transaction.
 */
export async function advanceIncident(db: Db, orgUid: string, uid: string, step: 'acknowledge' | 'resolve', userUid: string, now: Date): Promise<IncidentView> {
  const at = now.toISOString();
  const from: IncidentStatus[] = step === 'acknowledge' ? ['open'] : ['open', 'acknowledged'];
  const changes =
    step === 'acknowledge'
      ? { status: 'acknowledged' as const, acknowledged_at: at, acknowledged_by: userUid, updated_at: at }
      : { status: 'resolved' as const, resolved_at: at, resolved_by: userUid, updated_at: at };
  await inTransaction(db, async (trx) => {
    const result = await trx.updateTable('incidents').set(changes).where('organization_uid', '=', orgUid).where('uid', '=', uid).where('status', 'in', from).executeTakeFirst();
    if (Number(result.numUpdatedRows) > 0) {
      await enqueueIncidentNotifications(trx, { organizationUid: orgUid, uid }, step === 'acknowledge' ? 'incident.acknowledged' : 'incident.resolved', now);
    }
  });
  const incident = await getIncident(db, orgUid, uid);
  if (!incident) throw notFound(`No incident "${uid}" in this organization.`);
  if (step === 'acknowledge' && incident.status === 'resolved' && incident.acknowledgedAt === null) {
    throw new AppError('CONFLICT', 'The incident is already resolved; there is nothing left to acknowledge.', { reason: 'INCIDENT_RESOLVED' });
  }
  return incident;
}
