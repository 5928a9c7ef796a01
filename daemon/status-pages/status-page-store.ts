import type { StatusPage } from '../../contract/status-pages.js';
import type { Selectable } from 'kysely';
import { newId } from '../db/ids.js';
import type { StatusPagesTable } from '../db/schema.js';
import { conflict, validationFailed } from '../errors.js';
import { toPage, type Page, type PageRequest } from '../http/pagination.js';
import { isUniqueViolation } from '../checks/unique-violation.js';
import type { Executor } from '../db/executor.js';
import { inTransaction } from '../db/in-transaction.js';

/** A status page as the API answers it. */
export type StatusPageView = StatusPage;

/** The fields a status page is made of. */
export interface StatusPageFields {
  slug: string;
  title: string;
  description: string | null;
  public: boolean;
  checks: string[];
}

const slugTaken = (slug: string) => conflict('SLUG_TAKEN', `A status page with slug "${slug}" already exists in this organization.`);

async function checksOf(db: Executor, pageUids: string[]): Promise<Map<string, string[]>> {
  const byPage = new Map<string, string[]>(pageUids.map((uid) => [uid, []]));
  if (pageUids.length === 0) return byPage;
  const rows = await db
    .selectFrom('status_page_checks as p')
    .innerJoin('checks as c', 'c.uid', 'p.check_uid')
    .select(['p.status_page_uid', 'c.slug'])
    .where('p.status_page_uid', 'in', pageUids)
    .orderBy('p.status_page_uid')
    .orderBy('p.position')
    .execute();
  for (const row of rows) byPage.get(row.status_page_uid)!.push(row.slug);
  return byPage;
}

function toView(row: Selectable<StatusPagesTable>, checks: string[]): StatusPageView {
  return {
    slug: row.slug,
    title: row.title,
    description: row.description,
    public: Boolean(row.public),
    checks,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The uids of the checks with these slugs, in order; 400 naming each slug that is not a check. */
async function resolveChecks(db: Executor, orgUid: string, slugs: string[]): Promise<string[]> {
  if (slugs.length === 0) return [];
  const rows = await db.selectFrom('checks').select(['uid', 'slug']).where('organization_uid', '=', orgUid).where('slug', 'in', slugs).execute();
  const bySlug = new Map(rows.map((row) => [row.slug, row.uid]));
  const missing = slugs.flatMap((slug, i) => (bySlug.has(slug) ? [] : [{ path: `checks.${i}`, message: `no check with slug "${slug}" in this organization` }]));
  if (missing.length > 0) throw validationFailed(missing, 'The status page is not valid.');
  return slugs.map((slug) => bySlug.get(slug)!);
}

async function replaceChecks(db: Executor, pageUid: string, checkUids: string[]): Promise<void> {
  await db.deleteFrom('status_page_checks').where('status_page_uid', '=', pageUid).execute();
  if (checkUids.length > 0) {
    await db
      .insertInto('status_page_checks')
      .values(checkUids.map((check_uid, position) => ({ status_page_uid: pageUid, check_uid, position })))
      .execute();
  }
}

async function findRow(db: Executor, orgUid: string, slug: string) {
  return db.selectFrom('status_pages').selectAll().where('organization_uid', '=', orgUid).where('slug', '=', slug).executeTakeFirst();
}

/** One status page, or undefined. */
export async function getStatusPage(db: Executor, orgUid: string, slug: string): Promise<StatusPageView | undefined> {
  const row = await findRow(db, orgUid, slug);
  return row && toView(row, (await checksOf(db, [row.uid])).get(row.uid)!);
}

/** A page of status pages in creation order. */
export async function listStatusPages(db: Executor, orgUid: string, query: PageRequest): Promise<Page<StatusPageView>> {
  let builder = db.selectFrom('status_pages').selectAll().where('organization_uid', '=', orgUid);
  if (query.cursor) builder = builder.where('uid', '>', query.cursor);
  const rows = await builder
    .orderBy('uid')
    .limit(query.limit + 1)
    .execute();
  const page = toPage(rows, query.limit);
  const checks = await checksOf(
    db,
    page.items.map((row) => row.uid),
  );
  return { items: page.items.map((row) => toView(row, checks.get(row.uid)!)), nextCursor: page.nextCursor };
}

/** Creates a status page; 409 `SLUG_TAKEN` when the slug is in use, 400 for unknown checks. */
export async function createStatusPage(db: Executor, orgUid: string, fields: StatusPageFields, now: Date): Promise<StatusPageView> {
  const at = now.toISOString();
  const row: Selectable<StatusPagesTable> = {
    uid: newId(now.getTime()),
    organization_uid: orgUid,
    slug: fields.slug,
    title: fields.title,
    description: fields.description,
    public: fields.public ? 1 : 0,
    created_at: at,
    updated_at: at,
  };
  await inTransaction(db, async (trx) => {
    const checkUids = await resolveChecks(trx, orgUid, fields.checks);
    const inserted = await trx
      .insertInto('status_pages')
      .values(row)
      .onConflict((oc) => oc.columns(['organization_uid', 'slug']).doNothing())
      .returning('uid')
      .executeTakeFirst();
    if (!inserted) throw slugTaken(fields.slug);
    await replaceChecks(trx, row.uid, checkUids);
  });
  // resolveChecks matched each slug exactly, so the page shows `fields.checks` in that order.
  return toView(row, [...fields.checks]);
}

/**
 * Applies `changes` to the status page `slug` (a new slug, title, description, public flag, or
 * the whole list of checks). Undefined when there is no such page.
 */
export async function updateStatusPage(
  db: Executor,
  orgUid: string,
  slug: string,
  changes: Partial<StatusPageFields>,
  now: Date,
): Promise<StatusPageView | undefined> {
  const newSlug = changes.slug ?? slug;
  try {
    const found = await inTransaction(db, async (trx) => {
      const row = await findRow(trx, orgUid, slug);
      if (!row) return false;
      if (newSlug !== slug && (await findRow(trx, orgUid, newSlug))) throw slugTaken(newSlug);
      const checkUids = changes.checks && (await resolveChecks(trx, orgUid, changes.checks));
      await trx
        .updateTable('status_pages')
        .set({
          slug: newSlug,
          ...(changes.title === undefined ? {} : { title: changes.title }),
          ...(changes.description === undefined ? {} : { description: changes.description }),
          ...(changes.public === undefined ? {} : { public: changes.public ? 1 : 0 }),
          updated_at: now.toISOString(),
        })
        .where('uid', '=', row.uid)
        .execute();
      if (checkUids) await replaceChecks(trx, row.uid, checkUids);
      return true;
    });
    return found ? getStatusPage(db, orgUid, newSlug) : undefined;
  } catch (error) {
    if (isUniqueViolation(error)) throw slugTaken(newSlug);
    throw error;
  }
}

/** Deletes a status page; false when there is none. */
export async function deleteStatusPage(db: Executor, orgUid: string, slug: string): Promise<boolean> {
  const result = await db.deleteFrom('status_pages').where('organization_uid', '=', orgUid).where('slug', '=', slug).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The uid, title and public flag of the status page `slug`, or undefined. */
export async function findStatusPage(db: Executor, orgUid: string, slug: string): Promise<{ uid: string; title: string; public: boolean } | undefined> {
  const row = await findRow(db, orgUid, slug);
  return row && { uid: row.uid, title: row.title, public: Boolean(row.public) };
}
