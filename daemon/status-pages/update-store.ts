import type { Selectable } from 'kysely';
import type { StatusPageUpdate, StatusPageUpdateState } from '../../contract/status-pages.js';
import { newId } from '../db/ids.js';
import type { Executor } from '../db/executor.js';
import type { StatusPageUpdatesTable } from '../db/schema.js';
import { validationFailed } from '../errors.js';
import { toPage, type Page, type PageRequest } from '../http/pagination.js';

/** What an update is made of, as posted. */
export interface UpdateFields {
  title: string;
  body: string;
  state: StatusPageUpdateState;
  /** Slugs of checks listed on the page. */
  checks: string[];
}

type UpdateRow = Selectable<StatusPageUpdatesTable>;

const toView = (row: UpdateRow, checks: string[]): StatusPageUpdate => ({
  uid: row.uid,
  title: row.title,
  body: row.body,
  state: row.state,
  checks,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  resolvedAt: row.resolved_at,
});

/** The slugs of the checks each update names, in order. */
async function checksOf(db: Executor, updateUids: string[]): Promise<Map<string, string[]>> {
  const byUpdate = new Map<string, string[]>(updateUids.map((uid) => [uid, []]));
  if (updateUids.length === 0) return byUpdate;
  const rows = await db
    .selectFrom('status_page_update_checks as u')
    .innerJoin('checks as c', 'c.uid', 'u.check_uid')
    .select(['u.update_uid', 'c.slug'])
    .where('u.update_uid', 'in', updateUids)
    .orderBy('u.update_uid')
    .orderBy('u.position')
    .execute();
  for (const row of rows) byUpdate.get(row.update_uid)!.push(row.slug);
  return byUpdate;
}

/** The uids of the checks with these slugs among those the page lists; 400 naming each that is not. */
async function resolvePageChecks(db: Executor, pageUid: string, slugs: string[]): Promise<string[]> {
  if (slugs.length === 0) return [];
  const rows = await db
    .selectFrom('status_page_checks as l')
    .innerJoin('checks as c', 'c.uid', 'l.check_uid')
    .select(['c.uid', 'c.slug'])
    .where('l.status_page_uid', '=', pageUid)
    .where('c.slug', 'in', slugs)
    .execute();
  const bySlug = new Map(rows.map((row) => [row.slug, row.uid]));
  const missing = slugs.flatMap((slug, i) => (bySlug.has(slug) ? [] : [{ path: `checks.${i}`, message: `no check with slug "${slug}" on this status page` }]));
  if (missing.length > 0) throw validationFailed(missing, 'The update is not valid.');
  return slugs.map((slug) => bySlug.get(slug)!);
}

async function replaceChecks(db: Executor, updateUid: string, checkUids: string[]): Promise<void> {
  await db.deleteFrom('status_page_update_checks').where('update_uid', '=', updateUid).execute();
  if (checkUids.length > 0) {
    await db
      .insertInto('status_page_update_checks')
      .values(checkUids.map((check_uid, position) => ({ update_uid: updateUid, check_uid, position })))
      .execute();
  }
}

const findRow = (db: Executor, pageUid: string, uid: string) =>
  db.selectFrom('status_page_updates').selectAll().where('status_page_uid', '=', pageUid).where('uid', '=', uid).executeTakeFirst();

/** One update of the page, or undefined. */
export async function getUpdate(db: Executor, pageUid: string, uid: string): Promise<StatusPageUpdate | undefined> {
  const row = await findRow(db, pageUid, uid);
  return row && toView(row, (await checksOf(db, [row.uid])).get(row.uid)!);
}

/** A page of the page's updates, newest first. */
export async function listUpdates(db: Executor, pageUid: string, query: PageRequest): Promise<Page<StatusPageUpdate>> {
  let builder = db.selectFrom('status_page_updates').selectAll().where('status_page_uid', '=', pageUid);
  if (query.cursor) builder = builder.where('uid', '<', query.cursor);
  const rows = await builder
    .orderBy('uid', 'desc')
    .limit(query.limit + 1)
    .execute();
  const page = toPage(rows, query.limit);
  const checks = await checksOf(
    db,
    page.items.map((row) => row.uid),
  );
  return { items: page.items.map((row) => toView(row, checks.get(row.uid)!)), nextCursor: page.nextCursor };
}

/** Writes a new update (call it inside a transaction when mail goes with it); 400 for checks the page does not list. */
export async function insertUpdate(db: Executor, pageUid: string, fields: UpdateFields, now: Date): Promise<StatusPageUpdate> {
  const at = now.toISOString();
  const row: UpdateRow = {
    uid: newId(now.getTime()),
    status_page_uid: pageUid,
    title: fields.title,
    body: fields.body,
    state: fields.state,
    created_at: at,
    updated_at: at,
    resolved_at: fields.state === 'resolved' ? at : null,
  };
  const checkUids = await resolvePageChecks(db, pageUid, fields.checks);
  await db.insertInto('status_page_updates').values(row).execute();
  await replaceChecks(db, row.uid, checkUids);
  return toView(row, [...fields.checks]);
}

/**
 * Applies `changes` to an update; resolving it records when, reopening clears that. Answers the
 * update before and after, or undefined when the page has no such update.
 */
export async function changeUpdate(
  db: Executor,
  pageUid: string,
  uid: string,
  changes: Partial<UpdateFields>,
  now: Date,
): Promise<{ before: StatusPageUpdate; after: StatusPageUpdate } | undefined> {
  const before = await getUpdate(db, pageUid, uid);
  if (!before) return undefined;
  const checkUids = changes.checks && (await resolvePageChecks(db, pageUid, changes.checks));
  const at = now.toISOString();
  const state = changes.state ?? before.state;
  const resolvedAt = state !== 'resolved' ? null : before.state === 'resolved' ? before.resolvedAt : at;
  await db
    .updateTable('status_page_updates')
    .set({
      ...(changes.title === undefined ? {} : { title: changes.title }),
      ...(changes.body === undefined ? {} : { body: changes.body }),
      state,
      resolved_at: resolvedAt,
      updated_at: at,
    })
    .where('uid', '=', uid)
    .execute();
  if (checkUids) await replaceChecks(db, uid, checkUids);
  return { before, after: (await getUpdate(db, pageUid, uid))! };
}

/** Deletes an update; false when there is none. */
export async function deleteUpdate(db: Executor, pageUid: string, uid: string): Promise<boolean> {
  const result = await db.deleteFrom('status_page_updates').where('status_page_uid', '=', pageUid).where('uid', '=', uid).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
