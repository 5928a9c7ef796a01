import type { Executor } from '../checks/check-store.js';
import { newId } from '../db/ids.js';
import { openIncident, resolveBySystem } from '../incidents/incident-lifecycle.js';
import { DeferredInserts } from '../db/deferred-inserts.js';
import { CHECKS_PER_READ, readOpenings, type KnownOpening } from '../notify/opening-reads.js';
import type { CheckState } from './state-machine.js';

/** The check a state change is about. */
export interface ChangedCheck {
  uid: string;
  organizationUid: string;
  slug: string;
  name: string;
}

/** A check's change of state, caused by the result with `message` (null without one) at `at`. */
export interface StateChange {
  check: ChangedCheck;
  from: CheckState;
  to: CheckState;
  message: string | null;
  at: Date;
}

/**
 * What recording a check's going down reads, read ahead: its latest unresolved incident, and
 * what opening one reads; and where the rows it writes wait to be inserted with the others.
 */
interface KnownDown {
  unresolved: string | null;
  opening: KnownOpening;
  inserts: DeferredInserts;
}

/**
 * Records `changes` as recordStateChange does one by one, in order for each check; each change's
 * `state` is its check's state row, whose incident it reads before and writes after, so that
 * several changes of one check follow each other. What a check's first change reads when it goes
 * down is read ahead for all such checks at once, in a few statements instead of four for each,
 * and what those first changes write (incidents, messages, state changes) is inserted together,
 * a few multi-row statements instead of three for each. The other changes are recorded after,
 * one by one: a later change of the same check reads afresh (the first may have opened or
 * resolved an incident) and finds what the first wrote.
 */
export async function recordStateChanges(db: Executor, changes: readonly (StateChange & { state: { incident_uid: string | null } })[]): Promise<void> {
  const first = new Map<string, StateChange>();
  for (const change of changes) if (!first.has(change.check.uid)) first.set(change.check.uid, change);
  const going = [...first.values()].filter((change) => change.to === 'down');
  const known = new Map<string, KnownDown>();
  const inserts = new DeferredInserts();
  if (going.length > 1) {
    const earliest = new Date(Math.min(...going.map((change) => change.at.getTime())));
    const openings = await readOpenings(
      db,
      going.map(({ check }) => ({ uid: check.uid, organizationUid: check.organizationUid })),
      earliest,
    );
    const unresolved = await latestUnresolved(
      db,
      going.map(({ check }) => check.uid),
    );
    for (const [uid, opening] of openings) known.set(uid, { unresolved: unresolved.get(uid) ?? null, opening, inserts });
  }
  // Only a check's first change may use what was read ahead.
  const readAhead = (change: StateChange) => (first.get(change.check.uid) === change ? known.get(change.check.uid) : undefined);
  const record = async (change: (typeof changes)[number], ahead?: KnownDown) => {
    change.state.incident_uid = await recordStateChange(db, { ...change, incidentUid: change.state.incident_uid }, ahead);
  };
  for (const change of changes) {
    const ahead = readAhead(change);
    if (ahead) await record(change, ahead);
  }
  await inserts.insert(db);
  for (const change of changes) if (!readAhead(change)) await record(change);
}

/** Each check's latest unresolved incident, by check uid (absent: none). */
async function latestUnresolved(db: Executor, checkUids: readonly string[]): Promise<Map<string, string>> {
  const latest = new Map<string, string>();
  for (let i = 0; i < checkUids.length; i += CHECKS_PER_READ) {
    const rows = await db
      .selectFrom('incidents')
      .select((eb) => ['check_uid', eb.fn.max('uid').as('uid')])
      .where('check_uid', 'in', checkUids.slice(i, i + CHECKS_PER_READ))
      .where('status', '!=', 'resolved')
      .groupBy('check_uid')
      .execute();
    for (const row of rows) latest.set(row.check_uid!, row.uid);
  }
  return latest;
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
export async function recordStateChange(db: Executor, change: StateChange & { incidentUid: string | null }, known?: KnownDown): Promise<string | null> {
  const at = change.at.toISOString();
  const organizationUid = change.check.organizationUid;
  let incidentUid = change.incidentUid;
  if (change.to === 'down') {
    incidentUid = await unresolvedIncident(db, change.check.uid, incidentUid, known?.unresolved);
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
      known?.opening,
      known?.inserts,
    );
  } else if (incidentUid && change.to !== 'pending' && change.to !== 'maintenance') {
    // Up or degraded: the check recovered. Paused: nobody watches it any more, so nothing will
    // ever resolve the incident but this.
    await resolveBySystem(db, { organizationUid, uid: incidentUid }, change.to === 'paused' ? 'check-paused' : 'recovered', change.at, change.message);
  }
  const row = {
    uid: newId(change.at.getTime()),
    organization_uid: change.check.organizationUid,
    check_uid: change.check.uid,
    check_slug: change.check.slug,
    from_state: change.from,
    to_state: change.to,
    message: change.message,
    incident_uid: incidentUid,
    at,
  };
  if (known) known.inserts.add('check_state_changes', [row]);
  else await db.insertInto('check_state_changes').values(row).execute();
  return change.to === 'down' || change.to === 'maintenance' ? incidentUid : null;
}

/**
 * The unresolved incident about the check: the one it is known to be under, or any other.
 * `latest`: the check's latest unresolved incident, read ahead (null: none).
 */
async function unresolvedIncident(db: Executor, checkUid: string, known: string | null, latest?: string | null): Promise<string | null> {
  const latestUid =
    latest !== undefined
      ? latest
      : ((
          await db
            .selectFrom('incidents')
            .select('uid')
            .where('check_uid', '=', checkUid)
            .where('status', '!=', 'resolved')
            .orderBy('uid', 'desc')
            .limit(1)
            .executeTakeFirst()
        )?.uid ?? null);
  if (known && latestUid !== known) {
    const still = await db.selectFrom('incidents').select('uid').where('uid', '=', known).where('status', '!=', 'resolved').executeTakeFirst();
    if (still) return known;
  }
  return latestUid;
}
