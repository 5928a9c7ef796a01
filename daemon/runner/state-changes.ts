import type { Executor } from '../checks/check-store.js';
import { toPage, type Page, type PageRequest } from '../http/pagination.js';
import type { StateChange } from '../../contract/responses.js';
import type { CheckState } from './state-machine.js';

/**
 * The state changes of an organization, newest first, or of one check (by uid) when `checkUid`
 * is given: each from one index range (organization or check, then uid).
 */
export async function listStateChanges(db: Executor, orgUid: string, query: PageRequest & { checkUid?: string }): Promise<Page<StateChange>> {
  let builder = db.selectFrom('check_state_changes').selectAll();
  builder =
    query.checkUid === undefined
      ? builder.where('organization_uid', '=', orgUid)
      : builder.where('check_uid', '=', query.checkUid).where('organization_uid', '=', orgUid);
  if (query.cursor) builder = builder.where('uid', '<', query.cursor);
  const rows = await builder
    .orderBy('uid', 'desc')
    .limit(query.limit + 1)
    .execute();
  return toPage(rows, query.limit, (row) => ({
    uid: row.uid,
    checkSlug: row.check_slug,
    from: row.from_state as CheckState,
    to: row.to_state as CheckState,
    message: row.message,
    incidentUid: row.incident_uid,
    at: row.at,
  }));
}
