import type { Executor } from '../checks/check-store.js';
import { onPostgres } from '../db/executor.js';
import { resolveBySystem, unresolvedIncidentsOf } from '../incidents/incident-lifecycle.js';
import { recordStateChange, type ChangedCheck } from './check-incidents.js';

// What pausing, resuming and deleting a check does to its state and its open incident, at
// once and in the transaction that changes the check (not at its next scheduled run): a paused
// check shows `paused` in its state history and its incident is resolved, saying why, and
// notified; a resumed one starts over as pending; a deleted one's incident is resolved too.

/** The check was enabled and now is not. */
export async function checkPaused(trx: Executor, check: ChangedCheck, at: Date): Promise<void> {
  const row = await stateRow(trx, check.uid);
  if (row && row.state !== 'paused') {
    await recordStateChange(trx, { check, from: row.state, to: 'paused', message: null, incidentUid: row.incident_uid, at });
    await trx
      .updateTable('check_states')
      .set({
        state: 'paused',
        state_since: at.toISOString(),
        fail_streak: 0,
        success_streak: 0,
        incident_uid: null,
        armed_at: at.getTime(),
        run_started_at: null,
      })
      .where('check_uid', '=', check.uid)
      .execute();
  }
  // An incident opened by hand about the check, or one the state row no longer names.
  for (const uid of await unresolvedIncidentsOf(trx, check.uid)) {
    await resolveBySystem(trx, { organizationUid: check.organizationUid, uid }, 'check-paused', at);
  }
}

/** The check was paused and is enabled again: it starts over as pending. */
export async function checkResumed(trx: Executor, check: ChangedCheck, at: Date): Promise<void> {
  const row = await stateRow(trx, check.uid);
  if (row?.state !== 'paused') return;
  await recordStateChange(trx, { check, from: 'paused', to: 'pending', message: null, incidentUid: null, at });
  await trx
    .updateTable('check_states')
    .set({ state: 'pending', state_since: at.toISOString(), fail_streak: 0, success_streak: 0, armed_at: at.getTime(), run_started_at: null })
    .where('check_uid', '=', check.uid)
    .execute();
}

/** The check is about to be deleted: its unresolved incidents are resolved and notified first. */
export async function checkDeleted(trx: Executor, check: ChangedCheck, at: Date): Promise<void> {
  for (const uid of await unresolvedIncidentsOf(trx, check.uid)) {
    await resolveBySystem(trx, { organizationUid: check.organizationUid, uid }, 'check-deleted', at);
  }
}

/** Calls the switch a change of `enabled` asks for, if any. */
export async function checkSwitched(trx: Executor, check: ChangedCheck, wasEnabled: boolean, enabled: boolean, at: Date): Promise<void> {
  if (wasEnabled && !enabled) await checkPaused(trx, check, at);
  else if (!wasEnabled && enabled) await checkResumed(trx, check, at);
}

async function stateRow(trx: Executor, checkUid: string) {
  let query = trx.selectFrom('check_states').select(['state', 'incident_uid']).where('check_uid', '=', checkUid);
  // The result writer holds state rows with FOR UPDATE on PostgreSQL: wait for it, then decide.
  if (onPostgres(trx)) query = query.forUpdate();
  return query.executeTakeFirst();
}
