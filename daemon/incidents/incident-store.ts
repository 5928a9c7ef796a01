import { inTransaction } from '../db/in-transaction.js';
import { notFound } from '../errors.js';
import { toPage, type Page, type PageRequest } from '../http/pagination.js';
import type { Incident as ContractIncident } from '../../contract/responses.js';
import type { IncidentActor as ContractIncidentActor } from '../../contract/responses.js';
import { advanceIncident, alreadyResolved, openIncident, type IncidentStatus } from './incident-lifecycle.js';
import type { Executor } from '../db/executor.js';

// Incidents as the API reads them, and the steps a member takes (the lifecycle itself, shared
// with the engine, is incident-lifecycle.ts).

export type { IncidentStatus };
export { INCIDENT_STATUSES } from '../../contract/states.js';

/** Who did something, as an incident shows it. */
export type Actor = ContractIncidentActor;

/** An incident as the API answers it. */
export type IncidentView = ContractIncident;

function selectIncidents(db: Executor, orgUid: string) {
  return (
    db
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
      // The result that opened it: the message of the state change into down that names it.
      .select((eb) =>
        eb
          .selectFrom('check_state_changes as sc')
          .select('sc.message')
          .whereRef('sc.incident_uid', '=', 'i.uid')
          .where('sc.to_state', '=', 'down')
          .orderBy('sc.uid')
          .limit(1)
          .as('opening_message'),
      )
      .where('i.organization_uid', '=', orgUid)
  );
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
    resolution: row.resolution ?? null,
    openingMessage: row.opening_message ?? null,
    updatedAt: row.updated_at,
  };
}

/** One incident, or undefined. */
export async function getIncident(db: Executor, orgUid: string, uid: string): Promise<IncidentView | undefined> {
  const row = await selectIncidents(db, orgUid).where('i.uid', '=', uid).executeTakeFirst();
  return row && toView(row);
}

/** A page of incidents, newest first, optionally of one status. */
export async function listIncidents(db: Executor, orgUid: string, query: PageRequest & { status?: IncidentStatus }): Promise<Page<IncidentView>> {
  let builder = selectIncidents(db, orgUid);
  if (query.status) builder = builder.where('i.status', '=', query.status);
  if (query.cursor) builder = builder.where('i.uid', '<', query.cursor);
  const rows = await builder
    .orderBy('i.uid', 'desc')
    .limit(query.limit + 1)
    .execute();
  return toPage(rows, query.limit, toView);
}

/** A member opens an incident, optionally about a check. */
export async function openIncidentByMember(
  db: Executor,
  orgUid: string,
  input: { title: string; check?: { uid: string; slug: string }; openedBy: string },
  now: Date,
): Promise<IncidentView> {
  const uid = await inTransaction(db, (trx) =>
    openIncident(trx, { organizationUid: orgUid, title: input.title, check: input.check ?? null, openedBy: input.openedBy }, now),
  );
  return (await getIncident(db, orgUid, uid))!;
}

/**
 * A member acknowledges or resolves an incident. Repeating a step that is already done answers
 * the incident unchanged; acknowledging a resolved incident is 409 CONFLICT `INCIDENT_RESOLVED`.
 */
export async function advanceIncidentByMember(
  db: Executor,
  orgUid: string,
  uid: string,
  step: 'acknowledge' | 'resolve',
  userUid: string,
  now: Date,
): Promise<IncidentView> {
  await inTransaction(db, (trx) => advanceIncident(trx, { organizationUid: orgUid, uid }, step, userUid, now));
  const incident = await getIncident(db, orgUid, uid);
  if (!incident) throw notFound(`No incident "${uid}" in this organization.`);
  if (step === 'acknowledge' && incident.status === 'resolved' && incident.acknowledgedAt === null) throw alreadyResolved();
  return incident;
}
