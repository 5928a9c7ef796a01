import type { PublicUpdate, StatusPageUpdateState } from '../../../contract/status-pages.js';
import type { Executor } from '../../db/executor.js';
import { renderMarkdownSubset } from '../markdown-subset.js';

/** Resolved updates stay on the page this long. */
export const PAST_UPDATE_DAYS = 90;
const DAY_MS = 86_400_000;
/** At most this many updates are shown (open ones first). */
const MAX_UPDATES = 100;

/** The updates a public page shows, and the state each listed check takes from the newest open update naming it. */
export interface PageUpdates {
  updates: PublicUpdate[];
  stateByCheck: Map<string, StatusPageUpdateState>;
}

/**
 * The page's open updates (newest first) and those resolved in the last PAST_UPDATE_DAYS (newest
 * resolved first), with the names of the checks they name among `listed`, the page's checks
 * (a check no longer on the page is not shown). Two queries.
 */
export async function loadPageUpdates(
  db: Executor,
  pageUid: string,
  listed: ReadonlyArray<{ uid: string; name: string }>,
  nowMs: number,
): Promise<PageUpdates> {
  const since = new Date(nowMs - PAST_UPDATE_DAYS * DAY_MS).toISOString();
  const rows = await db
    .selectFrom('status_page_updates')
    .selectAll()
    .where('status_page_uid', '=', pageUid)
    .where((eb) => eb.or([eb('resolved_at', 'is', null), eb('resolved_at', '>=', since)]))
    .orderBy('uid', 'desc')
    .limit(MAX_UPDATES)
    .execute();
  const links = rows.length
    ? await db
        .selectFrom('status_page_update_checks')
        .select(['update_uid', 'check_uid'])
        .where(
          'update_uid',
          'in',
          rows.map((row) => row.uid),
        )
        .orderBy('update_uid')
        .orderBy('position')
        .execute()
    : [];
  const names = new Map(listed.map((check) => [check.uid, check.name]));
  const checksOf = new Map<string, string[]>(rows.map((row) => [row.uid, []]));
  for (const link of links) if (names.has(link.check_uid)) checksOf.get(link.update_uid)!.push(link.check_uid);

  const open = rows.filter((row) => row.resolved_at === null);
  const past = rows.filter((row) => row.resolved_at !== null).sort((a, b) => (a.resolved_at! < b.resolved_at! ? 1 : -1));
  const stateByCheck = new Map<string, StatusPageUpdateState>();
  // Newest first: the first open update naming a check gives it its state.
  for (const row of open) for (const checkUid of checksOf.get(row.uid)!) if (!stateByCheck.has(checkUid)) stateByCheck.set(checkUid, row.state);
  const updates = [...open, ...past].map(
    (row): PublicUpdate => ({
      uid: row.uid,
      title: row.title,
      body: row.body,
      bodyHtml: renderMarkdownSubset(row.body).toString(),
      state: row.state,
      checks: checksOf.get(row.uid)!.map((uid) => names.get(uid)!),
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      resolvedAt: row.resolved_at,
    }),
  );
  return { updates, stateByCheck };
}
