import type { Executor } from '../checks/check-store.js';
import { newId } from '../db/ids.js';
import { openIncident, resolveBySystem } from '../incidents/incident-lifecycle.js';
import type { CheckState } from './state-machine.js';

/** The check a state change is about. */
export interface ChangedCheck {
  uid: string;
  organizationUid: string;
  slug: string;
  name: string;
}

/**
 * Records a state change with its incident: going down opens an incident about the check (or
 * joins the one already unresolved: one open incident per check at a time); coming back up or
 * degraded resolves it, and so does a pause, recorded as resolved by the system with the reason.
 * Entering maintenance leaves an open incident as it is (the window ends, and the results
 * then resolve it or keep it). Answers the incident the check is down under afterwards (null
 * when it is not down; the open one, kept, in maintenance). Runs inside the result writer's transaction,
 * which holds the check's state row, so two writers never open two incidents for one check.
 */
export async function recordStateChange(
  db: Executor,
  change: { check: ChangedCheck; from: CheckState; to: CheckState; message: string | null; incidentUid: string | null; at: Date },
): Promise<string | null> {
  const at = change.at.toISOString();
  const organizationUid = change.check.organizationUid;
  let incidentUid = change.incidentUid;
  if (change.to === 'down') {
    incidentUid = await unresolvedIncident(db, change.check.uid, incidentUid);
    incidentUid ??= await openIncident(
      db,
      {
        organizationUid,
        title: `${change.check.name} is down`,
        check: { uid: change.check.uid, slug: change.check.slug },
        openedBy: null,
        message: change.message,
      },
      change.at,
    );
  } else if (incidentUid && change.to !== 'pending' && change.to !== 'maintenance') {
    // Up or degraded: the check recovered. Paused: nobody watches it any more, so nothing will
    // ever resolve the incident but this.
    await resolveBySystem(db, { organizationUid, uid: incidentUid }, change.to === 'paused' ? 'check-paused' : 'recovered', change.at, change.message);
  }
  await db
    .insertInto('check_state_changes')
    .values({
      uid: newId(change.at.getTime()),
      organization_uid: change.check.organizationUid,
      check_uid: change.check.uid,
      check_slug: change.check.slug,
      from_state: change.from,
      to_state: change.to,
      message: change.message,
      incident_uid: incidentUid,
      at,
    })
    .execute();
  return change.to === 'down' || change.to === 'maintenance' ? incidentUid : null;
}

/** The unresolved incident about the check: the one it is known to be under, or any other. */
async function unresolvedIncident(db: Executor, checkUid: string, known: string | null): Promise<string | null> {
  const row = await db
    .selectFrom('incidents')
    .select('uid')
    .where('check_uid', '=', checkUid)
    .where('status', '!=', 'resolved')
    .orderBy('uid', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (known && row?.uid !== known) {
    const still = await db.selectFrom('incidents').select('uid').where('uid', '=', known).where('status', '!=', 'resolved').executeTakeFirst();
    if (still) return known;
  }
  return row?.uid ?? null;
}
