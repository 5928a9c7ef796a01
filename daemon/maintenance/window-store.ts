import type { Selectable } from 'kysely';
import type { MaintenanceWindow } from '../../contract/maintenance-windows.js';
import type { Executor } from '../db/executor.js';
import { newId } from '../db/ids.js';
import type { MaintenanceWindowsTable } from '../db/schema.js';
import { validationFailed, type ValidationIssue } from '../errors.js';
import { labelsMatch, scheduleOf } from './coverage.js';
import { currentOrNext, isTimeZone, recurrenceProblem } from './recurrence.js';
import { inTransaction } from '../db/in-transaction.js';

// The persistence of maintenance windows, shared by the REST routes and the import.

/** What a window is made of; checks by slug. */
export interface WindowFields {
  title: string;
  description: string | null;
  startsAt: string;
  endsAt: string;
  recurrence: string | null;
  timezone: string;
  allChecks: boolean;
  checks: string[];
  labels: Record<string, string>;
}

type WindowRow = Selectable<MaintenanceWindowsTable>;

const iso = (text: string): string => new Date(text).toISOString();

/** The problems of a window's schedule (400 lists them), none when it is valid. */
export function scheduleProblems(fields: Pick<WindowFields, 'startsAt' | 'endsAt' | 'recurrence' | 'timezone'>): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (!isTimeZone(fields.timezone)) issues.push({ path: 'timezone', message: 'is not an IANA time zone (e.g. Europe/Berlin)' });
  if (Date.parse(fields.endsAt) <= Date.parse(fields.startsAt)) issues.push({ path: 'endsAt', message: 'must be after startsAt' });
  if (fields.recurrence !== null && issues.length === 0) {
    const problem = recurrenceProblem(fields.recurrence, fields.timezone);
    if (problem) issues.push({ path: 'recurrence', message: problem });
  }
  return issues;
}

/** The view of a window at `now`. */
function toView(row: WindowRow, checks: string[], now: number): MaintenanceWindow {
  const occurrence = currentOrNext(scheduleOf(row), now);
  return {
    uid: row.uid,
    title: row.title,
    description: row.description,
    startsAt: row.starts_at,
    endsAt: row.ends_at,
    recurrence: row.recurrence,
    timezone: row.timezone,
    allChecks: Boolean(row.all_checks),
    checks,
    labels: JSON.parse(row.labels),
    active: occurrence !== null && occurrence.start <= now,
    occurrence: occurrence && { startsAt: new Date(occurrence.start).toISOString(), endsAt: new Date(occurrence.end).toISOString() },
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The slugs each window names, in slug order. */
async function checksOf(db: Executor, windowUids: string[]): Promise<Map<string, string[]>> {
  const byWindow = new Map<string, string[]>(windowUids.map((uid) => [uid, []]));
  if (windowUids.length === 0) return byWindow;
  const rows = await db
    .selectFrom('maintenance_window_checks as w')
    .innerJoin('checks as c', 'c.uid', 'w.check_uid')
    .select(['w.window_uid', 'c.slug'])
    .where('w.window_uid', 'in', windowUids)
    .orderBy('c.slug')
    .execute();
  for (const row of rows) byWindow.get(row.window_uid)!.push(row.slug);
  return byWindow;
}

/** The uids of the checks with these slugs; 400 naming each slug that is not a check. */
async function resolveChecks(db: Executor, orgUid: string, slugs: string[]): Promise<string[]> {
  if (slugs.length === 0) return [];
  const rows = await db.selectFrom('checks').select(['uid', 'slug']).where('organization_uid', '=', orgUid).where('slug', 'in', slugs).execute();
  const bySlug = new Map(rows.map((row) => [row.slug, row.uid]));
  const missing = slugs.flatMap((slug, i) => (bySlug.has(slug) ? [] : [{ path: `checks.${i}`, message: `no check with slug "${slug}" in this organization` }]));
  if (missing.length > 0) throw validationFailed(missing, 'The maintenance window is not valid.');
  return slugs.map((slug) => bySlug.get(slug)!);
}

async function replaceChecks(db: Executor, windowUid: string, checkUids: string[]): Promise<void> {
  await db.deleteFrom('maintenance_window_checks').where('window_uid', '=', windowUid).execute();
  if (checkUids.length > 0)
    await db
      .insertInto('maintenance_window_checks')
      .values(checkUids.map((check_uid) => ({ window_uid: windowUid, check_uid })))
      .execute();
}

/** Whether a window covers a check: named, every check, or by labels. */
function covers(row: WindowRow, named: string[], check: { slug: string; labels: Record<string, string> }): boolean {
  return Boolean(row.all_checks) || named.includes(check.slug) || labelsMatch(check.labels, JSON.parse(row.labels));
}

/**
 * The organization's windows in start order, as they stand at `now`; with `check`, only those
 * that cover it; with `upcoming`, only those under way or still to come.
 */
export async function listWindows(
  db: Executor,
  orgUid: string,
  now: Date,
  filter: { check?: { slug: string; labels: Record<string, string> }; upcoming?: boolean } = {},
): Promise<MaintenanceWindow[]> {
  const rows = await db.selectFrom('maintenance_windows').selectAll().where('organization_uid', '=', orgUid).orderBy('starts_at').orderBy('uid').execute();
  const checks = await checksOf(
    db,
    rows.map((row) => row.uid),
  );
  const check = filter.check;
  return rows
    .filter((row) => !check || covers(row, checks.get(row.uid)!, check))
    .map((row) => toView(row, checks.get(row.uid)!, now.getTime()))
    .filter((view) => !filter.upcoming || view.occurrence !== null);
}

/** One window, or undefined. */
export async function getWindow(db: Executor, orgUid: string, uid: string, now: Date): Promise<MaintenanceWindow | undefined> {
  const row = await db.selectFrom('maintenance_windows').selectAll().where('organization_uid', '=', orgUid).where('uid', '=', uid).executeTakeFirst();
  return row && toView(row, (await checksOf(db, [row.uid])).get(row.uid)!, now.getTime());
}

/** Creates a window; 400 for a bad schedule or unknown checks, nothing written then. */
export async function createWindow(db: Executor, orgUid: string, fields: WindowFields, now: Date): Promise<MaintenanceWindow> {
  const issues = scheduleProblems(fields);
  if (issues.length > 0) throw validationFailed(issues, 'The maintenance window is not valid.');
  const at = now.toISOString();
  const row: WindowRow = {
    uid: newId(now.getTime()),
    organization_uid: orgUid,
    title: fields.title,
    description: fields.description,
    starts_at: iso(fields.startsAt),
    ends_at: iso(fields.endsAt),
    recurrence: fields.recurrence,
    timezone: fields.timezone,
    all_checks: fields.allChecks ? 1 : 0,
    labels: JSON.stringify(fields.labels),
    import_source: null,
    created_at: at,
    updated_at: at,
  };
  await inTransaction(db, async (trx) => {
    const checkUids = await resolveChecks(trx, orgUid, fields.checks);
    await trx.insertInto('maintenance_windows').values(row).execute();
    await replaceChecks(trx, row.uid, checkUids);
  });
  return toView(row, [...fields.checks].sort(), now.getTime());
}

/** Applies `changes` to a window (`checks` and `labels` replace the whole list); undefined when there is none. */
export async function updateWindow(
  db: Executor,
  orgUid: string,
  uid: string,
  changes: Partial<WindowFields>,
  now: Date,
): Promise<MaintenanceWindow | undefined> {
  const found = await inTransaction(db, async (trx) => {
    const row = await trx.selectFrom('maintenance_windows').selectAll().where('organization_uid', '=', orgUid).where('uid', '=', uid).executeTakeFirst();
    if (!row) return false;
    const schedule = {
      startsAt: changes.startsAt ?? row.starts_at,
      endsAt: changes.endsAt ?? row.ends_at,
      recurrence: changes.recurrence === undefined ? row.recurrence : changes.recurrence,
      timezone: changes.timezone ?? row.timezone,
    };
    const issues = scheduleProblems(schedule);
    if (issues.length > 0) throw validationFailed(issues, 'The maintenance window is not valid.');
    if (changes.checks) await replaceChecks(trx, uid, await resolveChecks(trx, orgUid, changes.checks));
    await trx
      .updateTable('maintenance_windows')
      .set({
        title: changes.title ?? row.title,
        description: changes.description === undefined ? row.description : changes.description,
        starts_at: iso(schedule.startsAt),
        ends_at: iso(schedule.endsAt),
        recurrence: schedule.recurrence,
        timezone: schedule.timezone,
        all_checks: changes.allChecks === undefined ? row.all_checks : changes.allChecks ? 1 : 0,
        labels: changes.labels ? JSON.stringify(changes.labels) : row.labels,
        updated_at: now.toISOString(),
      })
      .where('uid', '=', uid)
      .execute();
    return true;
  });
  return found ? getWindow(db, orgUid, uid, now) : undefined;
}

/** Deletes a window; false when there is none. */
export async function deleteWindow(db: Executor, orgUid: string, uid: string): Promise<boolean> {
  const deleted = await db.deleteFrom('maintenance_windows').where('organization_uid', '=', orgUid).where('uid', '=', uid).executeTakeFirst();
  return Number(deleted.numDeletedRows) > 0;
}

/** A window an import brings: its fields, the checks by slug (those that do not exist are left out). */
export type ImportedWindow = Omit<WindowFields, 'labels'>;

/**
 * Replaces the windows an import `source` made in the organization with `windows` (inside the
 * import's transaction). Checks are named by slug; a slug that is no check (a conflict left
 * alone, say) is left out. Answers how many windows it wrote.
 */
export async function replaceImportedWindows(db: Executor, orgUid: string, source: string, windows: readonly ImportedWindow[], now: Date): Promise<number> {
  await db.deleteFrom('maintenance_windows').where('organization_uid', '=', orgUid).where('import_source', '=', source).execute();
  const slugs = [...new Set(windows.flatMap((window) => window.checks))];
  const rows = slugs.length
    ? await db.selectFrom('checks').select(['uid', 'slug']).where('organization_uid', '=', orgUid).where('slug', 'in', slugs).execute()
    : [];
  const bySlug = new Map(rows.map((row) => [row.slug, row.uid]));
  let written = 0;
  for (const window of windows) {
    if (scheduleProblems(window).length > 0) continue;
    const checkUids = window.checks.flatMap((slug) => bySlug.get(slug) ?? []);
    if (!window.allChecks && checkUids.length === 0) continue;
    const at = now.toISOString();
    const uid = newId(now.getTime());
    await db
      .insertInto('maintenance_windows')
      .values({
        uid,
        organization_uid: orgUid,
        title: window.title,
        description: window.description,
        starts_at: iso(window.startsAt),
        ends_at: iso(window.endsAt),
        recurrence: window.recurrence,
        timezone: window.timezone,
        all_checks: window.allChecks ? 1 : 0,
        labels: '{}',
        import_source: source,
        created_at: at,
        updated_at: at,
      })
      .execute();
    await replaceChecks(db, uid, checkUids);
    written++;
  }
  return written;
}
