import { sql } from 'kysely';
import type { Executor } from '../checks/check-store.js';
import { CHECK_STATES, type CheckState } from './state-machine.js';
import type { CheckStateCounts } from '../../contract/responses.js';

/**
 * How many checks of an organization are in each state as the API shows it (viewState): disabled
 * checks are paused, enabled ones no runner has judged yet are pending. One grouped query,
 * whatever the number of checks.
 */
export async function countCheckStates(db: Executor, orgUid: string): Promise<CheckStateCounts> {
  const shown = sql<CheckState>`case when checks.enabled = 0 then 'paused' when st.state is null or st.state in ('pending', 'paused') then 'pending' else st.state end`;
  const rows = await db
    .selectFrom('checks')
    .leftJoin('check_states as st', 'st.check_uid', 'checks.uid')
    .select([shown.as('state'), (eb) => eb.fn.countAll<number>().as('count')])
    .where('checks.organization_uid', '=', orgUid)
    .groupBy(shown)
    .execute();
  const counts = Object.fromEntries(CHECK_STATES.map((state) => [state, 0])) as Record<CheckState, number>;
  for (const row of rows) counts[row.state] = Number(row.count);
  return { total: Object.values(counts).reduce((sum, n) => sum + n, 0), counts };
}
